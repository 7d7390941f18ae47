import StratusModel

/// What the zone batch engine reads of its zone as the store holds it before the batch (earlier
/// batches of the same group commit included): each back end answers from its own tables, in
/// its own SQL. The engine never sees the rows it writes through this: it keeps them itself
/// (``BatchWrites``) and reads them first.
///
/// A back end that reads ahead instead of on demand (PostgreSQL: every read is a round trip)
/// throws ``BatchRowsMissing`` for a row it has not read yet; its driver reads what was missed
/// and runs the engine again from the start (the engine only decides: it writes nothing itself).
///
/// So the engine never catches what these throw: a ``BatchRowsMissing`` must reach the driver,
/// and any other failure the store. No code under `Engine/` has a `catch` or a `try?`
/// (`EngineCatchesNothingTests` reads the sources to hold it to that).
package protocol BatchRows {
    /// The record's row, tombstones included.
    func record(_ name: String) throws -> BatchRecordRow?
    /// The records with a `DELETE_SELF` reference to `target` (`record_references`).
    func referenceSources(of target: String) throws -> [String]
    /// The records whose parent is `name`, tombstones included.
    func children(of name: String) throws -> [String]
    /// The share row of the share record `name`.
    func share(named name: String) throws -> ShareRow?
    /// The zone's shares of one kind: record-hierarchy shares (`hierarchy`), or its zone-wide share.
    func shares(hierarchy: Bool) throws -> [ShareRow]
    /// The share's participants, in order.
    func participants(of share: String) throws -> [StoredParticipant]
    /// The shares of the zone `user` has accepted as a participant other than its owner.
    func sharesAccepted(by user: String) throws -> Set<String>
    /// The types the schema of the database's container and environment holds for these fields
    /// (those it holds).
    func fieldTypes(of fields: [SchemaField], in database: DatabaseKey) throws -> [SchemaFieldKey: String]
    /// The quota of the (private) database's account and the bytes it uses; `nil` for none.
    func quota(of database: DatabaseKey) throws -> QuotaRow?
    /// An asset upload (a receipt) and what claimed it.
    func upload(_ uploadID: String) throws -> UploadRow?
    /// Whether the blob's bytes are registered (not collected).
    func blobIsStored(_ checksum: String) throws -> Bool
}

/// A read the back end has not made yet (``BatchRows``): its driver reads it and runs again.
package struct BatchRowsMissing: Error {
    package init() {}
}

/// A record's row and the bytes its stored fields take (what quotas count).
package struct BatchRecordRow: Sendable {
    package var record: StoredRecord
    package var fieldsBytes: Int64

    package init(record: StoredRecord, fieldsBytes: Int64) {
        self.record = record
        self.fieldsBytes = fieldsBytes
    }
}

/// A share's row beside its `cloudkit.share` record.
package struct ShareRow: Sendable, Hashable {
    package var recordName: String
    /// The hierarchy's root record; `nil` for a zone-wide share.
    package var rootName: String?
    package var shortGUID: String
    package var publicPermission: SharePermission

    package init(recordName: String, rootName: String?, shortGUID: String, publicPermission: SharePermission) {
        self.recordName = recordName
        self.rootName = rootName
        self.shortGUID = shortGUID
        self.publicPermission = publicPermission
    }
}

/// A field of a record type in the schema.
package struct SchemaFieldKey: Hashable, Sendable {
    package var recordType: String
    package var fieldName: String

    package init(recordType: String, fieldName: String) {
        self.recordType = recordType
        self.fieldName = fieldName
    }

    package init(_ field: SchemaField) {
        self.init(recordType: field.recordType, fieldName: field.fieldName)
    }
}

/// An account's storage quota and the bytes its private records use.
package struct QuotaRow: Sendable, Hashable {
    package var bytes: Int64
    package var used: Int64

    package init(bytes: Int64, used: Int64) {
        self.bytes = bytes
        self.used = used
    }
}

/// An asset upload's receipt: the bytes it stands for and the record field that claimed it.
package struct UploadRow: Sendable, Hashable {
    package var checksum: String
    package var claim: UploadClaim?

    package init(checksum: String, claim: UploadClaim?) {
        self.checksum = checksum
        self.claim = claim
    }
}

/// The record field (of a zone) an upload serves.
package struct UploadClaim: Sendable, Hashable {
    package var zoneID: Int64
    package var recordName: String
    package var fieldName: String

    package init(zoneID: Int64, recordName: String, fieldName: String) {
        self.zoneID = zoneID
        self.recordName = recordName
        self.fieldName = fieldName
    }

    /// The claim an upload row's nullable columns hold, or `nil` while it is unclaimed.
    package init?(zoneID: Int64?, recordName: String?, fieldName: String?) {
        guard let zoneID, let recordName, let fieldName else { return nil }
        self.init(zoneID: zoneID, recordName: recordName, fieldName: fieldName)
    }
}
