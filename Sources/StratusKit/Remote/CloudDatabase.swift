import StratusCloudKit
import StratusModel

/// One database of a container (private, shared or public), with an async method per CKWS
/// endpoint. Per-item failures come back as results; request failures throw ``CloudError``.
public struct CloudDatabase: Sendable {
    public let scope: DatabaseScope
    let transport: CloudTransport

    private func path(_ operation: String) -> String { "\(scope.rawValue)/\(operation)" }

    // MARK: - Records

    /// records/modify: the operations' results in order (records or per-item errors).
    public func modify(_ operations: [RecordOperation], in zoneID: ZoneID, atomic: Bool? = nil) async throws(CloudError) -> [Result<Record, CloudError>] {
        let request = ModifyRecordsRequest(operations: operations, zoneID: zoneID, atomic: atomic)
        return try await transport.post(path("records/modify"), request, as: RecordsResponse.self).records.map(CloudDatabase.result)
    }

    /// records/modify as CKModifyRecordsOperation reports it: the saved records, or a
    /// `partialFailure` whose `partialErrors` hold each failed record's error by name.
    public func modifyRecords(_ operations: [RecordOperation], in zoneID: ZoneID, atomic: Bool? = nil) async throws(CloudError) -> [Record] {
        let results = try await modify(operations, in: zoneID, atomic: atomic)
        var saved: [Record] = []
        var failures: [String: CloudError] = [:]
        for (operation, result) in zip(operations, results) {
            switch result {
            case .success(let record): saved.append(record)
            case .failure(let error): failures[operation.record.recordName ?? ""] = error
            }
        }
        guard failures.isEmpty else {
            throw CloudError(.partialFailure, "\(failures.count) of \(operations.count) records failed", partialErrors: failures)
        }
        return saved
    }

    /// records/lookup.
    public func records(named names: [String], in zoneID: ZoneID, desiredKeys: [String]? = nil) async throws(CloudError) -> [Result<Record, CloudError>] {
        let request = LookupRecordsRequest(records: names.map { .init(recordName: $0) }, zoneID: zoneID, desiredKeys: desiredKeys)
        return try await transport.post(path("records/lookup"), request, as: RecordsResponse.self).records.map(CloudDatabase.result)
    }

    /// records/query: one page and the marker of the next.
    public func query(_ query: Query, in zoneID: ZoneID?, resultsLimit: Int? = nil, continuationMarker: String? = nil)
        async throws(CloudError) -> (records: [Record], continuationMarker: String?)
    {
        let request = QueryRecordsRequest(query: query, zoneID: zoneID, resultsLimit: resultsLimit, continuationMarker: continuationMarker)
        let response = try await transport.post(path("records/query"), request, as: QueryRecordsResponse.self)
        return (response.records.compactMap(\.record), response.continuationMarker)
    }

    // MARK: - Zones

    public func allZones() async throws(CloudError) -> [Zone] {
        try await transport.post(path("zones/list"), EmptyRequest(), as: ZonesResponse.self).zones.compactMap(\.value)
    }

    /// zones/modify: saves then deletes, each zone's result in order.
    public func modifyZones(saving: [ZoneID], deleting: [ZoneID] = []) async throws(CloudError) -> [Result<Zone, CloudError>] {
        let operations = saving.map { ModifyZonesRequest.Operation(.create, $0) } + deleting.map { ModifyZonesRequest.Operation(.delete, $0) }
        let response = try await transport.post(path("zones/modify"), ModifyZonesRequest(operations: operations), as: ZonesResponse.self)
        return response.zones.map { result in
            switch result {
            case .success(let zone): .success(zone)
            case .failure(let error): .failure(CloudError(error))
            }
        }
    }

    // MARK: - Changes

    /// changes/database: zones changed or deleted since the token.
    public func databaseChanges(since token: String?, resultsLimit: Int? = nil) async throws(CloudError) -> DatabaseChangesResponse {
        try await transport.post(path("changes/database"), DatabaseChangesRequest(syncToken: token, resultsLimit: resultsLimit), as: DatabaseChangesResponse.self)
    }

    /// changes/zone for one zone: a page of changed records and tombstones.
    public func zoneChanges(_ zoneID: ZoneID, since token: String?, resultsLimit: Int? = nil) async throws(CloudError) -> ZoneChangesPage {
        let request = ZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: token, resultsLimit: resultsLimit)])
        let response = try await transport.post(path("changes/zone"), request, as: ZoneChangesResponse.self)
        switch response.zones.first {
        case .success(let page)?: return page
        case .failure(let error)?:
            throw CloudError(error)
        case nil:
            throw CloudError(.serverRejectedRequest, "changes/zone answered no zone")
        }
    }

    static func result(_ entry: RecordResult) -> Result<Record, CloudError> {
        switch entry {
        case .success(let record): .success(record)
        case .failure(let error): .failure(CloudError(error))
        }
    }
}
