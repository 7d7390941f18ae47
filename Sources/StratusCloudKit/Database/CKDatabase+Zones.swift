import Foundation
import StratusModel

extension CKDatabase {
    /// Every zone of the database (the shared database: the zones shared with the caller).
    public func allRecordZones() async throws -> [CKRecordZone] {
        try await post("zones/list", EmptyBody(), as: ZonesResponse.self).zones.compactMap(\.value).map { CKRecordZone(wire: $0, id: zoneID($0.zoneID)) }
    }

    /// The zone with this ID.
    /// - Throws: `zoneNotFound` when there is none.
    public func recordZone(for zoneID: CKRecordZone.ID) async throws -> CKRecordZone {
        guard let result = try await recordZones(for: [zoneID])[zoneID] else { throw CKError(.internalError, "zones/lookup answered nothing") }
        return try result.get()
    }

    /// The zones with these IDs, each a zone or its error.
    public func recordZones(for ids: [CKRecordZone.ID]) async throws -> [CKRecordZone.ID: Result<CKRecordZone, any Error>] {
        let response = try await post("zones/lookup", LookupZonesRequest(zones: ids.map(\.wire)), as: ZonesResponse.self)
        var results: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
        for (id, entry) in zip(ids, response.zones) {
            switch entry {
            case .success(let zone): results[id] = .success(CKRecordZone(wire: zone, id: id))
            case .failure(let error): results[id] = .failure(CKError(error))
            }
        }
        return results
    }

    /// Saves a zone (creating it; saving one that exists succeeds).
    public func save(_ zone: CKRecordZone) async throws -> CKRecordZone {
        let (saves, _) = try await modifyRecordZones(saving: [zone], deleting: [])
        guard let result = saves[zone.zoneID] else { throw CKError(.internalError, "zones/modify answered nothing") }
        return try result.get()
    }

    /// Deletes a zone and every record in it; answers its ID.
    @discardableResult
    public func deleteRecordZone(withID zoneID: CKRecordZone.ID) async throws -> CKRecordZone.ID {
        let (_, deletes) = try await modifyRecordZones(saving: [], deleting: [zoneID])
        guard let result = deletes[zoneID] else { throw CKError(.internalError, "zones/modify answered nothing") }
        try result.get()
        return zoneID
    }

    /// Saves and deletes zones in one zones/modify.
    public func modifyRecordZones(
        saving recordZonesToSave: [CKRecordZone], deleting recordZoneIDsToDelete: [CKRecordZone.ID]
    ) async throws -> (saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>]) {
        let operations = recordZonesToSave.map { ModifyZonesRequest.Operation(.create, $0.zoneID.wire) }
            + recordZoneIDsToDelete.map { ModifyZonesRequest.Operation(.delete, $0.wire) }
        let answers = try await post("zones/modify", ModifyZonesRequest(operations: operations), as: ZonesResponse.self).zones
        var saves: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
        var deletes: [CKRecordZone.ID: Result<Void, any Error>] = [:]
        for (index, answer) in answers.enumerated() {
            if index < recordZonesToSave.count {
                let id = recordZonesToSave[index].zoneID
                switch answer {
                case .success(let zone): saves[id] = .success(CKRecordZone(wire: zone, id: id))
                case .failure(let error): saves[id] = .failure(CKError(error))
                }
            } else if index - recordZonesToSave.count < recordZoneIDsToDelete.count {
                let id = recordZoneIDsToDelete[index - recordZonesToSave.count]
                switch answer {
                case .success: deletes[id] = .success(())
                case .failure(let error): deletes[id] = .failure(CKError(error))
                }
            }
        }
        return (saves, deletes)
    }
}
