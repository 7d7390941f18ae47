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
    /// Zones of a user's shared database whose content or visibility changed after `seq`, each
    /// owner's zone name once, as the user sees it now (earlier incarnations are never listed).
    /// A removed zone is listed only when it went after `deletionsAfter` too; `nil` (a fetch
    /// without a token) lists no removal at all, as ``RecordStore/databaseChanges(in:after:deletionsAfter:limit:)``.
    /// - Throws: ``StoreError/Kind/tokenExpired`` when `seq` is ahead of the current sequence.
    func sharedDatabaseChanges(
        of user: String, container: String, environment: ContainerEnvironment, after seq: Int64, deletionsAfter: Int64?, limit: Int
    ) async throws(StoreError) -> SharedDatabaseChangePage
    /// The names of the records under these roots (roots included, tombstones included).
    func hierarchy(rootedAt roots: [String], in zone: ZoneKey) async throws(StoreError) -> Set<String>
}

extension ShareStore {
    /// A user's shared database feed after `seq`, every removal after `seq` included (a token's fetch).
    public func sharedDatabaseChanges(of user: String, container: String, environment: ContainerEnvironment, after seq: Int64, limit: Int)
        async throws(StoreError) -> SharedDatabaseChangePage
    {
        try await sharedDatabaseChanges(of: user, container: container, environment: environment, after: seq, deletionsAfter: 0, limit: limit)
    }
}
