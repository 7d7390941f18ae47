import StratusModel

/// Storage of zones and records in CloudKit's terms: zone batches applied in one transaction
/// each, stamped from one global change sequence; change feeds read by sequence.
///
/// Implemented by ``SQLiteStore``; a PostgreSQL store implements the same protocol. No database
/// type appears in a signature.
public protocol RecordStore: Sendable {
    /// Creates or upgrades the tables. Call once before serving.
    func migrate() async throws(StoreError)

    /// The live zones of a database.
    func zones(in database: DatabaseKey) async throws(StoreError) -> [StoredZone]
    /// The live zone with this name, or `nil`.
    func zone(_ zone: ZoneKey) async throws(StoreError) -> StoredZone?
    /// Creates a zone, or returns the live one of that name (saving a zone is idempotent).
    func createZone(_ zone: ZoneKey, atomic: Bool) async throws(StoreError) -> StoredZone
    /// Deletes a zone and its records; the zone stays in the database feed as deleted, with `reason`.
    /// - Throws: ``StoreError/Kind/zoneNotFound``.
    func deleteZone(_ zone: ZoneKey, reason: ZoneDeletionReason) async throws(StoreError) -> StoredZone
    /// Why the zone of this name last left its database, while no live zone has the name: the
    /// reason its latest incarnation was deleted with. `nil` when one lives or none ever did.
    /// Read only to answer a request that met a missing zone.
    func deletionReason(of zone: ZoneKey) async throws(StoreError) -> ZoneDeletionReason?

    /// Applies one zone's writes in one transaction.
    /// - Throws: ``StoreError/Kind/zoneNotFound`` when the zone does not exist.
    func apply(_ batch: ZoneBatch) async throws(StoreError) -> ZoneBatchResult
    /// One page of live records matching `query`, in its order.
    /// - Throws: ``StoreError/Kind/zoneNotFound``.
    func query(_ query: RecordQuery) async throws(StoreError) -> QueryPage
    /// The records with these names (tombstones and missing names are `nil`), in order.
    func records(named names: [String], in zone: ZoneKey) async throws(StoreError) -> [StoredRecord?]

    /// Changes of a zone after `seq` (the latest version of each record, tombstones included).
    /// - Throws: ``StoreError/Kind/tokenExpired`` when `seq` is below the compaction horizon or
    ///   ahead of the zone's last change, or `generation` is not the zone's current incarnation
    ///   (a token never issued for the zone as it is); ``StoreError/Kind/zoneNotFound``.
    /// `names`, when given, limits the feed to those records (a participant's view of a shared
    /// hierarchy); `shares` are that view's hierarchy shares: records that entered one of them
    /// after `seq` come back too, and records that left one (and are not in `names`) come back as
    /// tombstones.
    func changes(
        in zone: ZoneKey, generation: Int64?, after seq: Int64, recordTypes: [String]?, names: Set<String>?, shares: [String], limit: Int
    ) async throws(StoreError) -> ZoneChangePage
    /// Zones of a database created, changed or deleted after `seq`, each zone name once, as it
    /// is now: a name deleted and made again after `seq` is its live zone, a name whose latest
    /// incarnation went after `seq` is that deletion, and earlier incarnations are never listed.
    /// A deleted zone is listed only when it went after `deletionsAfter` too; `nil` (a fetch
    /// without a token) lists no deletion at all and answers the current sequence as the page's
    /// ``DatabaseChangePage/deletionsAfter``, for the pages that continue it.
    /// - Throws: ``StoreError/Kind/tokenExpired`` when `seq` is ahead of the current sequence.
    func databaseChanges(in database: DatabaseKey, after seq: Int64, deletionsAfter: Int64?, limit: Int)
        async throws(StoreError) -> DatabaseChangePage
    /// The database feed's current position.
    func currentSequence() async throws(StoreError) -> Int64
    /// Drops the zone's tombstones and raises its compaction horizon to its current sequence.
    func compact(_ zone: ZoneKey) async throws(StoreError) -> StoredZone
    /// Expires every token of a database handed out so far: the sequence steps past them, each
    /// live zone is compacted up to that step, and database tokens below it expire (a shared
    /// database: only the participant's database tokens). Returns the new horizon.
    func compactDatabase(_ database: DatabaseKey) async throws(StoreError) -> Int64

    /// The learned field types of a container environment: record type → field → type.
    func schema(container: String, environment: ContainerEnvironment) async throws(StoreError) -> [String: [String: FieldType]]
}

extension RecordStore {
    /// Deletes a zone as its owner's app does (reason `deleted`).
    public func deleteZone(_ zone: ZoneKey) async throws(StoreError) -> StoredZone {
        try await deleteZone(zone, reason: .deleted)
    }

    /// Zones of a database created, changed or deleted after `seq`, every deletion after `seq`
    /// included (a token's fetch).
    public func databaseChanges(in database: DatabaseKey, after seq: Int64, limit: Int) async throws(StoreError) -> DatabaseChangePage {
        try await databaseChanges(in: database, after: seq, deletionsAfter: 0, limit: limit)
    }

    /// Changes of a zone after `seq`, every record included.
    public func changes(in zone: ZoneKey, generation: Int64?, after seq: Int64, recordTypes: [String]?, limit: Int)
        async throws(StoreError) -> ZoneChangePage
    {
        try await changes(in: zone, generation: generation, after: seq, recordTypes: recordTypes, names: nil, shares: [], limit: limit)
    }
}

/// Per-account storage quotas: counted over the records of the account's private database
/// (shared zones included, whoever writes to them), enforced by ``RecordStore/apply(_:)``.
public protocol QuotaStore: Sendable {
    /// Sets an account's quota, or lifts it with `nil`; returns the bytes its records use now.
    func setQuota(_ bytes: Int64?, container: String, environment: ContainerEnvironment, owner: String) async throws(StoreError) -> Int64
}
