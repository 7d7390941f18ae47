import StratusModel

/// What a batch's author may do in the public database, per record type: the schema's security
/// roles (`GRANT CREATE` and `GRANT WRITE` to `_world`, `_icloud`, `_creator` or a role made with
/// `CREATE ROLE`) as Core resolved them for that author.
///
/// The batch engine checks each write against the record's live row inside the batch's
/// transaction (``refusal(of:live:author:)``): a write that would create the record needs
/// ``Permissions/create`` for its type; a write to an existing record, whatever it does, needs
/// ``Permissions/mayChange(recordCreatedBy:author:)`` for the stored record's type.
///
/// ```swift
/// // CloudKit's defaults: signed-in users create, only the creator changes a record.
/// batch.rights = .creatorWrites
/// ```
public struct WriteRights: Sendable, Hashable {
    /// What the author may do with one record type's records.
    public struct Permissions: Sendable, Hashable {
        /// Create records of the type (`CREATE` through a role the author holds).
        public var create: Bool
        /// Change and delete the records the author created (`WRITE` to `_creator`).
        public var changeOwn: Bool
        /// Change and delete any record of the type (`WRITE` through a role the author holds).
        public var changeAny: Bool

        /// The permissions given.
        public init(create: Bool, changeOwn: Bool, changeAny: Bool) {
            self.create = create
            self.changeOwn = changeOwn
            self.changeAny = changeAny
        }

        /// Whether the author may change or delete a record that `creator` created.
        public func mayChange(recordCreatedBy creator: String?, author: String) -> Bool {
            changeAny || (changeOwn && creator == author)
        }
    }

    /// The permissions of each record type the schema names; a type not listed has ``otherwise``.
    public var recordTypes: [String: Permissions]
    /// The permissions of every other record type.
    public var otherwise: Permissions

    /// Rights with `recordTypes`' own permissions and `otherwise` for the rest.
    public init(recordTypes: [String: Permissions] = [:], otherwise: Permissions) {
        self.recordTypes = recordTypes
        self.otherwise = otherwise
    }

    /// CloudKit's default security roles for a signed-in user: they create records of every
    /// type and change only those they created.
    public static let creatorWrites = WriteRights(otherwise: Permissions(create: true, changeOwn: true, changeAny: false))

    /// The permissions for records of `recordType`.
    public func permissions(for recordType: String) -> Permissions {
        recordTypes[recordType] ?? otherwise
    }

    /// Why `write` may not apply, `live` being the record's current row (`nil`: there is none),
    /// or `nil` when it may. A write that would not create a missing record (a delete, a write
    /// that needs a change tag, one without a record type) is left to the rules that answer it.
    public func refusal(of write: RecordWrite, live: StoredRecord?, author: String) -> WriteFailure? {
        if let live {
            return permissions(for: live.type).mayChange(recordCreatedBy: live.created.userRecordName, author: author) ? nil : .permissionDenied
        }
        switch write.action {
        case .create, .save:
            if case .changeTag = write.precondition { return nil }
            guard let type = write.recordType else { return nil }
            return permissions(for: type).create ? nil : .createDenied
        case .delete, .leave:
            return nil
        }
    }
}
