import Foundation

// A records/modify body read without `JSONDecoder`: each reader mirrors its type's `Decodable`
// conformance (synthesized ones: a missing or `null` optional is `nil`, unknown keys are
// ignored) for the forms clients send on every write, and leaves the rest to `JSONDecoder`
// by throwing `JSONReader.Unsupported`. `JSONReaderTests` checks both agree.

extension JSONReader {
    /// Notes that the key of `bit` was read; a key given twice is `JSONDecoder`'s to decide.
    fileprivate static func once(_ bit: UInt32, _ seen: inout UInt32) throws {
        guard seen & bit == 0 else { throw Unsupported() }
        seen |= bit
    }

    /// A value that may be `null` (or, as a missing key, never read): `nil` then.
    fileprivate mutating func optional<Value>(_ read: (inout JSONReader) throws -> Value) throws -> Value? {
        try null() ? nil : read(&self)
    }

    fileprivate mutating func strings() throws -> [String] {
        try array { try $0.string() }
    }
}

extension ModifyRecordsRequest: JSONReadable {
    public static func read(from json: inout JSONReader) throws -> ModifyRecordsRequest {
        var operations: [RecordOperation]?
        var request = ModifyRecordsRequest(operations: [])
        var seen: UInt32 = 0
        try json.object { json, key in
            switch key {
            case "operations":
                try JSONReader.once(1, &seen)
                operations = try json.array { try RecordOperation.read(from: &$0) }
            case "zoneID":
                try JSONReader.once(2, &seen)
                request.zoneID = try json.optional { try ZoneID.read(from: &$0) }
            case "atomic":
                try JSONReader.once(4, &seen)
                request.atomic = try json.optional { try $0.bool() }
            case "desiredKeys":
                try JSONReader.once(8, &seen)
                request.desiredKeys = try json.optional { try $0.strings() }
            case "numbersAsStrings":
                try JSONReader.once(16, &seen)
                request.numbersAsStrings = try json.optional { try $0.bool() }
            default:
                try json.skipValue()
            }
        }
        guard let operations else { throw JSONReader.Unsupported() }
        request.operations = operations
        return request
    }
}

extension RecordOperation: JSONReadable {
    public static func read(from json: inout JSONReader) throws -> RecordOperation {
        var operationType: RecordOperationType?
        var record: Record?
        var desiredKeys: [String]?
        var seen: UInt32 = 0
        try json.object { json, key in
            switch key {
            case "operationType":
                try JSONReader.once(1, &seen)
                operationType = RecordOperationType(rawValue: try json.string())
            case "record":
                try JSONReader.once(2, &seen)
                record = try Record.read(from: &json)
            case "desiredKeys":
                try JSONReader.once(4, &seen)
                desiredKeys = try json.optional { try $0.strings() }
            default:
                try json.skipValue()
            }
        }
        guard let operationType, let record else { throw JSONReader.Unsupported() }
        return RecordOperation(operationType, record, desiredKeys: desiredKeys)
    }
}

extension Record: JSONReadable {
    public static func read(from json: inout JSONReader) throws -> Record {
        var record = Record()
        var seen: UInt32 = 0
        try json.object { json, key in
            switch key {
            case "recordName": try JSONReader.once(1, &seen); record.recordName = try json.optional { try $0.string() }
            case "recordType": try JSONReader.once(2, &seen); record.recordType = try json.optional { try $0.string() }
            case "recordChangeTag": try JSONReader.once(4, &seen); record.recordChangeTag = try json.optional { try $0.string() }
            case "fields": try JSONReader.once(8, &seen); record.fields = try json.optional { try [String: Field].read(from: &$0) }
            case "deleted": try JSONReader.once(16, &seen); record.deleted = try json.optional { try $0.bool() }
            case "parent": try JSONReader.once(32, &seen); record.parent = try json.optional { try RecordPointer.read(from: &$0) }
            case "share": try JSONReader.once(64, &seen); record.share = try json.optional { try RecordPointer.read(from: &$0) }
            case "shortGUID": try JSONReader.once(128, &seen); record.shortGUID = try json.optional { try $0.string() }
            case "createShortGUID": try JSONReader.once(256, &seen); record.createShortGUID = try json.optional { try $0.bool() }
            case "zoneID": try JSONReader.once(512, &seen); record.zoneID = try json.optional { try ZoneID.read(from: &$0) }
            case "url": try JSONReader.once(1024, &seen); record.url = try json.optional { try $0.string() }
            case "pluginFields", "created", "modified", "forRecord", "publicPermission", "participants", "owner", "currentUserParticipant":
                throw JSONReader.Unsupported()
            default:
                try json.skipValue()
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
    /// Typed values of the common types, and untyped strings; the rest (inference, numbers as
    /// strings, booleans, assets, locations) is `JSONDecoder`'s.
    public static func read(from json: inout JSONReader) throws -> Field {
        var typeTag: String?
        var field: Field?
        var exactDates: [Double]?
        var seen: UInt32 = 0
        // A value after its type (as Stratus writes fields) is read at once; one before it is
        // skipped, its position kept, and read once the type is known.
        var pending: JSONReader?
        try json.object { json, key in
            switch key {
            case "type":
                try JSONReader.once(1, &seen)
                typeTag = try json.string()
            case "value":
                try JSONReader.once(2, &seen)
                if let typeTag {
                    field = try typed(typeTag, from: &json)
                } else {
                    pending = json
                    try json.skipValue()
                }
            case "exactDates":
                try JSONReader.once(4, &seen)
                exactDates = try json.optional { try $0.array { try $0.double() } }
            default:
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
    public static func read(from json: inout JSONReader) throws -> Reference {
        var recordName: String?
        var zoneID: ZoneID?
        var action: Action?
        var seen: UInt32 = 0
        try json.object { json, key in
            switch key {
            case "recordName": try JSONReader.once(1, &seen); recordName = try json.string()
            case "zoneID": try JSONReader.once(2, &seen); zoneID = try json.optional { try ZoneID.read(from: &$0) }
            case "action":
                try JSONReader.once(4, &seen)
                action = try json.optional { json in
                    guard let action = Action(rawValue: try json.string()) else { throw JSONReader.Unsupported() }
                    return action
                }
            default: try json.skipValue()
            }
        }
        guard let recordName else { throw JSONReader.Unsupported() }
        return Reference(recordName: recordName, zoneID: zoneID, action: action)
    }
}

extension RecordPointer: JSONReadable {
    public static func read(from json: inout JSONReader) throws -> RecordPointer {
        var recordName: String?
        var pointer = RecordPointer(recordName: "")
        var seen: UInt32 = 0
        try json.object { json, key in
            switch key {
            case "recordName": try JSONReader.once(1, &seen); recordName = try json.string()
            case "recordChangeTag": try JSONReader.once(2, &seen); pointer.recordChangeTag = try json.optional { try $0.string() }
            case "zoneID": try JSONReader.once(4, &seen); pointer.zoneID = try json.optional { try ZoneID.read(from: &$0) }
            default: try json.skipValue()
            }
        }
        guard let recordName else { throw JSONReader.Unsupported() }
        pointer.recordName = recordName
        return pointer
    }
}

extension ZoneID: JSONReadable {
    public static func read(from json: inout JSONReader) throws -> ZoneID {
        var zoneName: String?
        var ownerRecordName: String?
        var ownerName: String?
        var seen: UInt32 = 0
        try json.object { json, key in
            switch key {
            case "zoneName": try JSONReader.once(1, &seen); zoneName = try json.string()
            case "ownerRecordName": try JSONReader.once(2, &seen); ownerRecordName = try json.optional { try $0.string() }
            case "ownerName": try JSONReader.once(4, &seen); ownerName = try json.optional { try $0.string() }
            case "zoneType":
                try JSONReader.once(8, &seen)
                if let type = try json.optional({ try $0.string() }), !ZoneID.zoneTypes.contains(type) { throw JSONReader.Unsupported() }
            default: try json.skipValue()
            }
        }
        guard let zoneName else { throw JSONReader.Unsupported() }
        return ZoneID(zoneName: zoneName, ownerRecordName: ownerRecordName ?? ownerName)
    }
}
