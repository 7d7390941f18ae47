import StratusModel
import StratusStore

/// The zone, accounts and writes the rule suites share: alice's private zone `Z`, and bob, who
/// takes part in her shares.
enum RuleFixture {
    static let alice = "_alice"
    static let bob = "_bob"
    static let database = DatabaseKey(container: "iCloud.test", environment: .development, scope: .private, owner: alice)
    static let zone = ZoneKey(database: database, name: "Z")

    /// A batch to `zone` by `author` (alice by default), non-atomic unless asked.
    static func batch(_ writes: [RecordWrite], atomic: Bool = false, by author: String = alice) -> ZoneBatch {
        ZoneBatch(zone: zone, atomic: atomic, writes: writes, author: ChangeAuthor(userRecordName: author, deviceID: "d1", timestamp: 1_000))
    }

    /// A save (merge unless `replace`) of a `T` record.
    static func save(
        _ name: String, _ fields: [String: Field] = [:], parent: String? = nil, tag: String? = nil, replace: Bool = false, type: String? = "T"
    ) -> RecordWrite {
        RecordWrite(
            name: name, action: .save(replace: replace), precondition: tag.map(RecordWrite.Precondition.changeTag) ?? .none,
            recordType: type, fields: fields, parentName: parent
        )
    }

    static func create(_ name: String, _ fields: [String: Field] = [:], parent: String? = nil) -> RecordWrite {
        RecordWrite(name: name, action: .create, precondition: .none, recordType: "T", fields: fields, parentName: parent)
    }

    static func delete(_ name: String) -> RecordWrite {
        RecordWrite(name: name, action: .delete, precondition: .none, recordType: nil)
    }

    /// A field referencing `target` with `action`.
    static func reference(_ target: String, _ action: Reference.Action) -> Field {
        Field(.reference(Reference(recordName: target, action: action)), type: .reference)
    }

    /// A write creating (or saving) the share record `name`, rooted at `root` (zone-wide without one).
    static func share(
        _ name: String, root: String?, participants: [ParticipantSpec]? = nil, limit: Int = 100, action: RecordWrite.Action = .create
    ) -> RecordWrite {
        var write = RecordWrite(name: name, action: action, precondition: .none, recordType: ShareNames.recordType)
        write.share = ShareWrite(rootName: root, publicPermission: nil, participants: participants, participantLimit: limit)
        return write
    }

    /// Bob, invited by account (`status` `.removed` removes him).
    static func bobInvited(_ status: ParticipantAcceptanceStatus? = nil) -> ParticipantSpec {
        ParticipantSpec(id: nil, userRecordName: bob, email: nil, role: .user, permission: .readWrite, status: status)
    }

    static func acceptor(_ user: String) -> Acceptor {
        Acceptor(userRecordName: user, email: nil, timestamp: 2_000, participantLimit: 100)
    }
}

extension ZoneBatchResult {
    /// The record each write saved, `nil` where it did not save.
    var saved: [StoredRecord?] {
        outcomes.map { if case .saved(let record) = $0 { record } else { nil } }
    }

    /// Why each write failed, `nil` where it did not.
    var failures: [WriteFailure?] {
        outcomes.map { if case .failed(let failure) = $0 { failure } else { nil } }
    }
}
