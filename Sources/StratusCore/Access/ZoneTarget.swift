import StratusModel
import StratusStore

/// The zone a request addresses, resolved for its database: where its records live, how
/// answers name the zone, and — in the shared database — the caller's window onto it.
struct ZoneTarget: Sendable {
    var zone: ZoneKey
    var zoneID: ZoneID
    /// Set in the shared database: the caller's window onto the owner's zone.
    var view: SharedZoneView?

    /// The records the caller may see in the zone; `nil` for all of them.
    var visibleNames: Set<String>? { view?.visibleNames }

    /// The zone a zone ID names, or `nil` when the caller has no such zone (another owner's
    /// private zone, or a shared zone they take part in no share of).
    static func resolve(
        _ zoneID: ZoneID?, in database: DatabaseKey, access: DatabaseAccess, store: any RecordStore & ShareStore
    ) async throws(StoreError) -> ZoneTarget? {
        if database.scope == .shared {
            guard let view = try await SharedZoneView.resolve(zoneID, in: database, store: store) else { return nil }
            return ZoneTarget(zone: view.key, zoneID: view.zoneID, view: view)
        }
        guard let key = access.zoneKey(zoneID, in: database) else { return nil }
        return ZoneTarget(zone: key, zoneID: access.zoneID(named: key.name, in: database))
    }
}

extension ZoneTarget {
    /// The error for a request whose zone is missing: in the caller's private database it says
    /// why the zone of that name went when it was purged or lost to an encrypted-data reset (see
    /// ``CoreError/zoneNotFound(after:)``); elsewhere, and when that cannot be read, it is the
    /// plain `ZONE_NOT_FOUND`. A zone created again under the name lives: it is never missing.
    static func missing(_ zoneID: ZoneID?, in database: DatabaseKey, access: DatabaseAccess, store: any RecordStore) async -> CoreError {
        guard database.scope == .private, let key = access.zoneKey(zoneID, in: database) else { return .zoneNotFound(after: nil) }
        return .zoneNotFound(after: try? await store.deletionReason(of: key))
    }
}
