import Foundation

// A records/modify body read without `JSONDecoder`: each reader mirrors its type's `Decodable`
// conformance (synthesized ones: a missing or `null` optional is `nil`, unknown keys are
// ignored) for the forms clients send on every write, and leaves the rest to `JSONDecoder`
// by throwing `JSONReader.Unsupported`. `JSONReaderTests` checks both agree.

extension JSONReader {
    /// A value that may be `null` (or, as a missing key, never read): `nil` then.
    fileprivate mutating func optional<Value>(_ read: (inout JSONReader) throws -> Value) throws -> Value? {
        try null() ? nil : read(&self)
    }

    fileprivate mutating func strings() throws -> [String] {
        try array { try $0.string() }
    }
}

extension ModifyRecordsRequest: JSONReadable {
    private enum Key: String, CaseIterable, Sendable { case operations, zoneID, atomic, desiredKeys, numbersAsStrings, clientChangeToken }
    private static let keys = JSONKeys<Key>()

    public static func read(from json: inout JSONReader) throws -> ModifyRecordsRequest {
        var operations: [RecordOperation]?
        var request = ModifyRecordsRequest(operations: [])
        try json.object(keys) { json, key in
            switch key {
            case .operations: operations = try json.array { try RecordOperation.read(from: &$0) }
            case .zoneID: request.zoneID = try json.optional { try ZoneID.read(from: &$0) }
            case .atomic: request.atomic = try json.optional { try $0.bool() }
            case .desiredKeys: request.desiredKeys = try json.optional { try $0.strings() }
            case .numbersAsStrings: request.numbersAsStrings = try json.optional { try $0.bool() }
            case .clientChangeToken: request.clientChangeToken = try json.optional { try $0.string() }
            case nil: try json.skipValue()
            }
        }
        guard let operations else { throw JSONReader.Unsupported() }
        request.operations = operations
        return request
    }
}

extension RecordOperation: JSONReadable {
    private enum Key: String, CaseIterable, Sendable { case operationType, record, desiredKeys }
    private static let keys = JSONKeys<Key>()

    public static func read(from json: inout JSONReader) throws -> RecordOperation {
        var operationType: RecordOperationType?
        var record: Record?
        var desiredKeys: [String]?
        try json.object(keys) { json, key in
            switch key {
            case .operationType: operationType = RecordOperationType(rawValue: try json.string())
            case .record: record = try Record.read(from: &json)
            case .desiredKeys: desiredKeys = try json.optional { try $0.strings() }
            case nil: try json.skipValue()
            }
        }
        guard let operationType, let record else { throw JSONReader.Unsupported() }
        return RecordOperation(operationType, record, desiredKeys: desiredKeys)
    }
}

extension Record: JSONReadable {
    private enum Key: String, CaseIterable, Sendable {
        case recordName, recordType, recordChangeTag, fields, deleted, parent, share, shortGUID, createShortGUID, zoneID, url
        case clearedFields, clearsParent
        /// Keys `JSONDecoder` reads (of shares, and server-set stamps): never on the fast path.
        case pluginFields, created, modified, forRecord, publicPermission, participants, owner, currentUserParticipant
    }
    private static let keys = JSONKeys<Key>()

    public static func read(from json: inout JSONReader) throws -> Record {
        var record = Record()
        try json.object(keys) { json, key in
            switch key {
            case .recordName: record.recordName = try json.optional { try $0.string() }
            case .recordType: record.recordType = try json.optional { try $0.string() }
            case .recordChangeTag: record.recordChangeTag = try json.optional { try $0.string() }
            case .fields: record.fields = try json.optional { try [String: Field].read(from: &$0) }
            case .deleted: record.deleted = try json.optional { try $0.bool() }
            case .parent: record.parent = try json.optional { try RecordPointer.read(from: &$0) }
            case .share: record.share = try json.optional { try RecordPointer.read(from: &$0) }
            case .shortGUID: record.shortGUID = try json.optional { try $0.string() }
            case .createShortGUID: record.createShortGUID = try json.optional { try $0.bool() }
            case .zoneID: record.zoneID = try json.optional { try ZoneID.read(from: &$0) }
            case .url: record.url = try json.optional { try $0.string() }
            case .clearedFields: record.clearedFields = try json.optional { try $0.strings() }
            case .clearsParent: record.clearsParent = try json.optional { try $0.bool() }
            case .pluginFields, .created, .modified, .forRecord, .publicPermission, .participants, .owner, .currentUserParticipant:
                throw JSONReader.Unsupported()
            case nil: try json.skipValue()
            }
        }
        return record
    }
}

extension Dictionary: JSONReadable where Key == String, Value == Field {
    /// A record's fields (in requests and as the stores keep them).
    public static func read(from json: inout JSONReader) throws -> [String: Field] {
        var fields: [String: Field] = [:]
        try json.object { json, name in
            guard fields[name] == nil else { throw JSONReader.Unsupported() }
            fields[name] = try Field.read(from: &json)
        }
        return fields
    }
}

extension Field: JSONReadable {
    private enum Key: String, CaseIterable, Sendable { case type, value, exactDates }
    private static let keys = JSONKeys<Key>()

    /// Typed values of the common types, and untyped strings; the rest (inference, numbers as
    /// strings, booleans, assets, locations) is `JSONDecoder`'s.
    public static func read(from json: inout JSONReader) throws -> Field {
        var typeTag: String?
        var field: Field?
        var exactDates: [Double]?
        // A value after its type (as Stratus writes fields) is read at once; one before it is
        // skipped, its position kept, and read once the type is known.
        var pending: JSONReader?
        try json.object(keys) { json, key in
            switch key {
            case .type:
                typeTag = try json.string()
            case .value:
                if let typeTag {
                    field = try typed(typeTag, from: &json)
                } else {
                    pending = json
                    try json.skipValue()
                }
            case .exactDates:
                exactDates = try json.optional { try $0.array { try $0.double() } }
            case nil:
                try json.skipValue()
            }
        }
        if var field {
            try field.attach(exactDates)
            return field
        }
        guard var reader = pending else { throw JSONReader.Unsupported() }
        if let typeTag {
            var field = try typed(typeTag, from: &reader)
            try field.attach(exactDates)
            return field
        }
        guard exactDates == nil else { throw JSONReader.Unsupported() }
        guard try reader.isString() else { throw JSONReader.Unsupported() }
        var untyped = Field(.string(try reader.string()), type: .string)
        untyped.isTypeInferred = true
        return untyped
    }

    /// Sets the exact dates read beside the value; dates that do not fit step aside (so
    /// `JSONDecoder` words the refusal).
    private mutating func attach(_ dates: [Double]?) throws {
        guard let dates else { return }
        guard Field.exactDatesFit(dates, value: value, type: type) else { throw JSONReader.Unsupported() }
        exactDates = dates
    }

    /// The value at the reader's position, of the type `tag` names.
    private static func typed(_ tag: String, from json: inout JSONReader) throws -> Field {
        guard let type = FieldType(wireTag: tag) else { throw JSONReader.Unsupported() }
        if let element = type.elementType {
            return Field(.list(try json.array { try FieldValue.read(as: element, from: &$0) }), type: type)
        }
        return Field(try FieldValue.read(as: type, from: &json), type: type)
    }
}

extension FieldValue {
    /// A value of `type` in the one form `Field`'s decoder tries first; anything else throws.
    fileprivate static func read(as type: FieldType, from json: inout JSONReader) throws -> FieldValue {
        switch type {
        case .string: return .string(try json.string())
        case .int64: return .int64(try json.int64())
        case .timestamp: return .timestamp(try json.int64())
        case .double: return .double(try json.double())
        case .bytes, .encryptedBytes:
            guard let data = Data(base64Encoded: try json.string()) else { throw JSONReader.Unsupported() }
            return .bytes(data)
        case .reference: return .reference(try Reference.read(from: &json))
        default: throw JSONReader.Unsupported()
        }
    }
}

extension Reference: JSONReadable {
    private enum Key: String, CaseIterable, Sendable { case recordName, zoneID, action }
    private static let keys = JSONKeys<Key>()

    public static func read(from json: inout JSONReader) throws -> Reference {
        var recordName: String?
        var zoneID: ZoneID?
        var action: Action?
        try json.object(keys) { json, key in
            switch key {
            case .recordName: recordName = try json.string()
            case .zoneID: zoneID = try json.optional { try ZoneID.read(from: &$0) }
            case .action:
                action = try json.optional { json in
                    guard let action = Action(rawValue: try json.string()) else { throw JSONReader.Unsupported() }
                    return action
                }
            case nil: try json.skipValue()
            }
        }
        guard let recordName else { throw JSONReader.Unsupported() }
        return Reference(recordName: recordName, zoneID: zoneID, action: action)
    }
}

extension RecordPointer: JSONReadable {
    private enum Key: String, CaseIterable, Sendable { case recordName, recordChangeTag, zoneID }
    private static let keys = JSONKeys<Key>()

    public static func read(from json: inout JSONReader) throws -> RecordPointer {
        var recordName: String?
        var pointer = RecordPointer(recordName: "")
        try json.object(keys) { json, key in
            switch key {
            case .recordName: recordName = try json.string()
            case .recordChangeTag: pointer.recordChangeTag = try json.optional { try $0.string() }
            case .zoneID: pointer.zoneID = try json.optional { try ZoneID.read(from: &$0) }
            case nil: try json.skipValue()
            }
        }
        guard let recordName else { throw JSONReader.Unsupported() }
        pointer.recordName = recordName
        return pointer
    }
}

extension ZoneID: JSONReadable {
    private enum Key: String, CaseIterable, Sendable { case zoneName, ownerRecordName, ownerName, zoneType }
    private static let keys = JSONKeys<Key>()

    public static func read(from json: inout JSONReader) throws -> ZoneID {
        var zoneName: String?
        var ownerRecordName: String?
        var ownerName: String?
        try json.object(keys) { json, key in
            switch key {
            case .zoneName: zoneName = try json.string()
            case .ownerRecordName: ownerRecordName = try json.optional { try $0.string() }
            case .ownerName: ownerName = try json.optional { try $0.string() }
            case .zoneType:
                if let type = try json.optional({ try $0.string() }), !ZoneID.zoneTypes.contains(type) { throw JSONReader.Unsupported() }
            case nil: try json.skipValue()
            }
        }
        guard let zoneName else { throw JSONReader.Unsupported() }
        return ZoneID(zoneName: zoneName, ownerRecordName: ownerRecordName ?? ownerName)
    }
}
