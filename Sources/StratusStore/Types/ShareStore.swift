import StratusModel

/// Storage of shares: the participant rows beside each `cloudkit.share` record, invitation
/// GUIDs, and each participant's shared database feed. Share records themselves are written
/// through ``RecordStore/apply(_:)`` with a ``ShareWrite``.
public protocol ShareStore: Sendable {
    /// The live share a short GUID names.
    func share(shortGUID: String) async throws(StoreError) -> StoredShare?
    /// The live shares of a zone.
    func shares(in zone: ZoneKey) async throws(StoreError) -> [StoredShare]
    /// Makes the caller an accepted participant: matched by account or invited email, or added
    /// as a public user of a public share. The share record changes, so every feed sees it.
    func accept(shortGUID: String, by acceptor: Acceptor) async throws(StoreError) -> AcceptOutcome
    /// The live zones a user currently takes part in, in a container environment.
    func sharedZones(of user: String, container: String, environment: ContainerEnvironment) async throws(StoreError) -> [SharedZone]
    /// Zones of a user's shared database whose content or visibility changed after `seq`.
    /// - Throws: ``StoreError/Kind/tokenExpired`` when `seq` is ahead of the current sequence.
    func sharedDatabaseChanges(of user: String, container: String, environment: ContainerEnvironment, after seq: Int64, limit: Int)
        async throws(StoreError) -> SharedDatabaseChangePage
    /// The names of the records under these roots (roots included, tombstones included).
    func hierarchy(rootedAt roots: [String], in zone: ZoneKey) async throws(StoreError) -> Set<String>
}
