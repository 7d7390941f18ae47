import StratusCloudKit
import StratusModel

/// What a scope holds, keyed `owner/zone/recordName`, with each record's field values: a device's
/// mirror or the server's view for one account, in one shape so the two can be compared (the
/// integration tests' consistency check and the sync fuzzer's).
public struct MirrorSnapshot: Sendable, Hashable {
    public var records: [String: [String: FieldValue]]

    public init(records: [String: [String: FieldValue]] = [:]) { self.records = records }

    /// Keys whose records differ between the two (present in one only, or with other values), sorted.
    public func differences(from other: MirrorSnapshot) -> [String] {
        Set(records.keys).union(other.records.keys).filter { records[$0] != other.records[$0] }.sorted()
    }

    static func key(owner: String, zone: String, name: String) -> String { "\(owner)/\(zone)/\(name)" }

    /// A value as both sides can agree on it: an asset is its bytes (checksum and size), not the
    /// download URL of one fetch or the receipt of one upload.
    static func comparable(_ value: FieldValue) -> FieldValue {
        value.mappingAssets { AssetValue(fileChecksum: $0.fileChecksum, size: $0.size) }
    }

    /// Every live record of a database as the server shows it to the container's account, read
    /// afresh through CloudKit from each custom zone's changes (the default zone keeps no feed
    /// and holds no synced records).
    public static func server(_ container: CKContainer, scope: DatabaseScope) async throws -> MirrorSnapshot {
        let database = scope == .shared ? container.sharedCloudDatabase : container.privateCloudDatabase
        let me = try await container.userRecordID().recordName
        var snapshot = MirrorSnapshot()
        for zone in try await database.allRecordZones() where zone.zoneID.zoneName != CKRecordZone.ID.defaultZoneName {
            let owner = zone.zoneID.ownerName == CKCurrentUserDefaultName ? me : zone.zoneID.ownerName
            let wireZone = ZoneID(zoneName: zone.zoneID.zoneName, ownerRecordName: owner)
            var token: CKServerChangeToken?
            while true {
                let page = try await database.recordZoneChanges(inZoneWith: zone.zoneID, since: token)
                for (id, result) in page.modificationResultsByID {
                    let record = try result.get().record.wireRecord(in: wireZone)
                    snapshot.records[key(owner: owner, zone: zone.zoneID.zoneName, name: id.recordName)] =
                        (record.fields ?? [:]).mapValues { comparable($0.value) }
                }
                token = page.changeToken
                if !page.moreComing { break }
            }
        }
        return snapshot
    }

    /// What a device's store holds in a scope.
    public static func local(_ store: LocalStore, scope: DatabaseScope) throws -> MirrorSnapshot {
        var snapshot = MirrorSnapshot()
        for record in try store.records(in: scope) {
            // Fields as the server spells them (`CD_` names and `CD_entityName` in
            // NSPersistentCloudKitContainer style; shares keep theirs).
            let isShare = ShareNames.isShareType(record.serverRecord?.recordType)
            let fields = (isShare ? record.fields : store.serverFields(of: record)).mapValues { comparable($0.value) }
            snapshot.records[key(owner: record.key.owner, zone: record.key.zoneName, name: record.key.recordName)] = fields
        }
        return snapshot
    }
}
