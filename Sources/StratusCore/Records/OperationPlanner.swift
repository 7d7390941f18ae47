import Foundation
import StratusModel
import StratusStore

/// Turns the operations of one records/modify request into store writes: names checked,
/// change-tag preconditions chosen, field types resolved against the schema. An operation that
/// cannot become a write gets its per-item error here, before the store is touched.
struct OperationPlanner {
    /// One operation, planned: a write for the store, or the error that replaces it.
    enum Plan {
        case write(RecordWrite, desiredKeys: [String]?)
        case failure(RecordError)
        /// Answered without a write of the batch (a participant leaving a share).
        case answered(RecordResult)
    }

    let schema: SchemaCache.Schema
    /// Existing record types for operations that give no `recordType`.
    let existingTypes: [String: String]
    let mayLearn: Bool
    /// Accounts and limits for share records.
    let shares: ShareContext
    /// Bytes of one record's fields.
    let recordBytes: Int

    /// Fields the schema does not know yet, to learn in the batch.
    private(set) var newFields: [SchemaField] = []
    private var pendingTypes: [String: [String: FieldType]] = [:]

    init(
        schema: SchemaCache.Schema, existingTypes: [String: String], mayLearn: Bool, shares: ShareContext = ShareContext(),
        recordBytes: Int = ServiceLimits.strict.recordBytes
    ) {
        self.schema = schema
        self.existingTypes = existingTypes
        self.mayLearn = mayLearn
        self.shares = shares
        self.recordBytes = recordBytes
    }

    /// The record names the request's operations address (generated for creates without one).
    static func names(of operations: [RecordOperation]) -> [String] {
        operations.map { $0.record.recordName ?? UUID().uuidString }
    }

    mutating func plan(_ operation: RecordOperation, name: String, requestDesiredKeys: [String]?) -> Plan {
        let record = operation.record
        func failure(_ code: ServerErrorCode, _ reason: String) -> Plan {
            .failure(RecordError(recordName: name, serverErrorCode: code, reason: reason, uuid: ErrorUUID.make()))
        }
        guard NameRules.isValidRecordName(name) else {
            return failure(.badRequest, "invalid recordName '\(name)'")
        }
        let desiredKeys = operation.desiredKeys ?? requestDesiredKeys
        let type = operation.operationType
        let tag = record.recordChangeTag
        let precondition: RecordWrite.Precondition
        if type.requiresChangeTag {
            guard let tag else { return failure(.badRequest, "\(type.rawValue) requires the record's recordChangeTag") }
            precondition = .changeTag(tag)
        } else {
            precondition = .none
        }
        if type.isDelete {
            let write = RecordWrite(name: name, action: .delete, precondition: precondition, recordType: nil)
            return .write(write, desiredKeys: desiredKeys)
        }
        let size = (record.fields ?? [:]).reduce(0) { $0 + $1.key.utf8.count + $1.value.value.dataSize }
        guard size <= recordBytes else {
            return .failure(RecordError(
                recordName: name, serverErrorCode: .badRequest,
                reason: "limit exceeded: record '\(name)' holds \(size) bytes (limit \(recordBytes) per record)",
                uuid: ErrorUUID.make(), nativeErrorCode: CKErrorCodeNumber.limitExceeded
            ))
        }
        let recordType = record.recordType ?? existingTypes[name]
        if ShareNames.isShareType(recordType) {
            return planShare(operation, name: name, desiredKeys: desiredKeys, precondition: precondition)
        }
        if let recordType, !NameRules.isValidIdentifier(recordType) {
            return failure(.badRequest, "invalid recordType '\(recordType)'")
        }
        if let recordType, NameRules.isReservedRecordType(recordType) {
            return failure(.badRequest, "record types beginning with 'cloudkit.' are reserved for the system's own ('\(recordType)')")
        }
        if name == ShareNames.zoneWideShare {
            return failure(.badRequest, "the record name \(ShareNames.zoneWideShare) is reserved for a zone-wide share")
        }
        if type == .create && recordType == nil {
            return failure(.badRequest, "create requires a recordType")
        }
        if let recordType, !mayLearn, schema[recordType] == nil {
            return failure(.badRequest, "Cannot create new type \(recordType) in production schema")
        }
        var fields: [String: Field] = [:]
        for (fieldName, field) in record.fields ?? [:] {
            guard NameRules.isValidIdentifier(fieldName) else {
                return failure(.badRequest, "invalid field name '\(fieldName)'")
            }
            if let reason = FieldRules.invalidValue(field.value, named: fieldName) { return failure(.badRequest, reason) }
            guard let recordType else {
                fields[fieldName] = field
                continue
            }
            switch resolve(field, named: fieldName, of: recordType) {
            case .success(let resolved): fields[fieldName] = resolved
            case .failure(let mismatch): return failure(.badRequest, mismatch.reason)
            }
        }
        if record.parent?.recordName == name {
            return failure(.badRequest, "record '\(name)' cannot be its own parent")
        }
        let clearedFields = Set(record.clearedFields ?? [])
        let clearsParent = record.clearsParent ?? false
        if !clearedFields.isEmpty || clearsParent {
            guard type == .update || type == .forceUpdate else {
                return failure(.badRequest, "clearedFields and clearsParent belong to an update or forceUpdate, not \(type.rawValue)")
            }
            if let invalid = clearedFields.sorted().first(where: { !NameRules.isValidIdentifier($0) }) {
                return failure(.badRequest, "invalid field name '\(invalid)' in clearedFields")
            }
            if let both = clearedFields.sorted().first(where: { fields[$0] != nil }) {
                return failure(.badRequest, "field '\(both)' is both given and cleared")
            }
            if clearsParent, record.parent != nil {
                return failure(.badRequest, "an operation that clears the parent gives none")
            }
        }
        let action: RecordWrite.Action =
            switch type {
            case .create: .create
            case .replace, .forceReplace: .save(replace: true)
            default: .save(replace: false)
            }
        var write = RecordWrite(
            name: name, action: action, precondition: precondition, recordType: recordType,
            fields: fields, parentName: record.parent?.recordName, createShortGUID: record.createShortGUID ?? false
        )
        write.clearedFields = clearedFields
        write.clearsParent = clearsParent
        write.requiredTargets = FieldRules.requiredTargets(of: fields)
        return .write(write, desiredKeys: desiredKeys)
    }

    private struct TypeMismatch: Error {
        var reason: String
    }

    /// The field with its type resolved: a bare value takes the schema's type; a typed value
    /// must match it. A field the schema lacks is learned (in development).
    private mutating func resolve(_ field: Field, named name: String, of recordType: String) -> Result<Field, TypeMismatch> {
        let known = schema[recordType]?[name] ?? pendingTypes[recordType]?[name]
        guard let known else {
            guard mayLearn else {
                return .failure(TypeMismatch(reason: "field '\(name)' is not in the production schema of '\(recordType)'"))
            }
            pendingTypes[recordType, default: [:]][name] = field.type
            newFields.append(SchemaField(recordType: recordType, fieldName: name, type: field.type))
            var learned = field
            learned.isTypeInferred = false
            return .success(learned)
        }
        // CloudKit refuses a bare number for a TIMESTAMP field (CKWS clients report this wording).
        if field.isTypeInferred, known == .timestamp || known == .timestampList {
            return .failure(TypeMismatch(reason: "Invalid value, expected type \(known.rawValue) for field '\(name)'"))
        }
        if field.isTypeInferred, let resolved = field.resolved(as: known) { return .success(resolved) }
        guard field.type == known else {
            return .failure(TypeMismatch(reason: "field '\(name)' of '\(recordType)' has type \(known.rawValue), not \(field.type.rawValue)"))
        }
        return .success(field)
    }
}
