import Foundation
import StratusModel
import StratusStore

/// Share records in records/modify: saved with a strict change-tag check, in custom zones only;
/// a new one names its root (`forRecord`) or is the zone-wide share; its participants become
/// the store's participant rows.
extension OperationPlanner {
    func planShare(_ operation: RecordOperation, name: String, desiredKeys: [String]?, precondition: RecordWrite.Precondition) -> Plan {
        let record = operation.record
        let type = operation.operationType
        func failure(_ reason: String) -> Plan {
            .failure(RecordError(recordName: name, serverErrorCode: .badRequest, reason: reason, uuid: ErrorUUID.make()))
        }
        guard shares.zoneMayHoldShares else { return failure("shares live in custom zones, not in the default zone") }
        guard type == .create || type.requiresChangeTag else {
            return failure("share records are saved with a change tag: use create, update or replace, not \(type.rawValue)")
        }
        var rootName: String?
        if type == .create {
            if name == ShareNames.zoneWideShare {
                guard record.forRecord == nil else { return failure("a zone-wide share has no forRecord") }
            } else {
                guard let root = record.forRecord?.recordName else {
                    return failure("a new share needs forRecord (its root record), or the name \(ShareNames.zoneWideShare) for a zone-wide share")
                }
                rootName = root
            }
        }
        var specs: [ParticipantSpec]?
        if let participants = record.participants {
            if let tooMany = shares.limitFailure(participants) { return failure(tooMany.reason) }
            var resolved: [ParticipantSpec] = []
            for participant in participants {
                switch shares.spec(for: participant) {
                case .success(let spec): resolved.append(spec)
                case .failure(let error): return failure(error.reason)
                }
            }
            specs = resolved
        }
        var fields: [String: Field] = [:]
        for (fieldName, field) in record.fields ?? [:] {
            guard NameRules.isValidIdentifier(fieldName) else { return failure("invalid field name '\(fieldName)'") }
            fields[fieldName] = field
        }
        let share = ShareWrite(
            rootName: rootName, publicPermission: record.publicPermission, participants: specs,
            participantLimit: shares.participantLimit
        )
        let action: RecordWrite.Action =
            switch type {
            case .create: .create
            case .replace: .save(replace: true)
            default: .save(replace: false)
            }
        let write = RecordWrite(
            name: name, action: action, precondition: precondition, recordType: ShareNames.recordType, fields: fields, share: share
        )
        return .write(write, desiredKeys: desiredKeys)
    }
}
