import Foundation
import StratusModel

/// One database of a container — private, shared or public — with Apple's async API: records,
/// zones, queries, change feeds, subscriptions, and operations (``add(_:)``). Per-item failures
/// come back as results; request failures throw ``CKError``.
public final class CKDatabase: NSObject, Sendable {
    /// Which database.
    public enum Scope: Int, Sendable, Hashable, CaseIterable {
        case `public` = 1
        case `private` = 2
        case shared = 3

        var wire: DatabaseScope {
            switch self {
            case .public: .public
            case .private: .private
            case .shared: .shared
            }
        }
    }

    public let databaseScope: Scope
    let container: CKContainer

    init(container: CKContainer, scope: Scope) {
        self.container = container
        self.databaseScope = scope
    }

    /// A zone ID the server sent, as the framework names it: in the caller's own databases
    /// (private, public) the owner is ``CKCurrentUserDefaultName``; shared zones keep their owner.
    func zoneID(_ wire: ZoneID) -> CKRecordZone.ID {
        databaseScope == .shared ? CKRecordZone.ID(wire: wire) : CKRecordZone.ID(zoneName: wire.zoneName)
    }

    /// The CKWS path of an operation in this database.
    func path(_ operation: String) -> String { "\(databaseScope.wire.rawValue)/\(operation)" }

    func post<Body: Encodable, Response: Decodable>(
        _ operation: String, _ body: Body, as: Response.Type, asking extra: WireExtensions = []
    ) async throws(CKError) -> Response {
        try await container.post(path(operation), body, as: Response.self, asking: extra)
    }

    // MARK: - Records

    /// The record with this ID.
    /// - Throws: `unknownItem` when there is none, `zoneNotFound` for a missing zone.
    public func record(for recordID: CKRecord.ID) async throws -> CKRecord {
        guard let result = try await records(for: [recordID])[recordID] else {
            throw CKError(.internalError, "records/lookup answered nothing for \(recordID.recordName)")
        }
        return try result.get()
    }

    /// The records with these IDs, each a record or its error (a lookup per zone, of at most
    /// 200 records: CloudKit Web Services' limit a request).
    public func records(
        for ids: [CKRecord.ID], desiredKeys: [CKRecord.FieldKey]? = nil
    ) async throws -> [CKRecord.ID: Result<CKRecord, any Error>] {
        var results: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        for (zoneID, zoneIDs) in Self.byZone(ids) {
            for start in stride(from: 0, to: zoneIDs.count, by: Self.operationsPerRequest) {
                let chunk = Array(zoneIDs[start..<min(start + Self.operationsPerRequest, zoneIDs.count)])
                try await lookup(chunk, in: zoneID, desiredKeys: desiredKeys, into: &results)
            }
        }
        return results
    }

    /// One records/lookup of records in one zone.
    private func lookup(
        _ ids: [CKRecord.ID], in zoneID: CKRecordZone.ID, desiredKeys: [String]?, into results: inout [CKRecord.ID: Result<CKRecord, any Error>]
    ) async throws {
        let request = LookupRecordsRequest(records: ids.map { .init(recordName: $0.recordName) }, zoneID: zoneID.wire, desiredKeys: desiredKeys)
        switch try await itemLevel({ () async throws(CKError) in try await post("records/lookup", request, as: RecordsResponse.self) }) {
        case .success(let response):
            for (id, entry) in zip(ids, response.records) {
                switch entry {
                case .success(let wire): results[id] = await receivedResult(wire, in: zoneID)
                case .failure(let error): results[id] = .failure(CKError(error, client: nil, zoneID: zoneID))
                }
            }
        case .failure(let error):
            for id in ids { results[id] = .failure(error) }
        }
    }

    /// Saves one record (if the server's is unchanged since the record was fetched).
    /// - Throws: `serverRecordChanged` (with the server's record) when it changed meanwhile.
    public func save(_ record: CKRecord) async throws -> CKRecord {
        let (saves, _) = try await modifyRecords(saving: [record], deleting: [])
        guard let result = saves[record.recordID] else { throw CKError(.internalError, "records/modify answered nothing") }
        return try result.get()
    }

    /// Deletes one record; answers its ID.
    @discardableResult
    public func deleteRecord(withID recordID: CKRecord.ID) async throws -> CKRecord.ID {
        let (_, deletes) = try await modifyRecords(saving: [], deleting: [recordID])
        guard let result = deletes[recordID] else { throw CKError(.internalError, "records/modify answered nothing") }
        try result.get()
        return recordID
    }

    // MARK: - Helpers

    /// IDs grouped by zone, zones in first-seen order.
    static func byZone(_ ids: [CKRecord.ID]) -> [(CKRecordZone.ID, [CKRecord.ID])] {
        var order: [CKRecordZone.ID] = []
        var groups: [CKRecordZone.ID: [CKRecord.ID]] = [:]
        for id in ids {
            if groups[id.zoneID] == nil { order.append(id.zoneID) }
            groups[id.zoneID, default: []].append(id)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// Whether a request-level failure is about the items (a zone, a permission) rather than
    /// the connection or the credentials: it is reported per item, as CloudKit does.
    static func isItemLevel(_ error: CKError) -> Bool {
        switch error.code {
        case .networkFailure, .networkUnavailable, .notAuthenticated, .serviceUnavailable, .requestRateLimited, .internalError,
            .serverRejectedRequest, .limitExceeded, .operationCancelled:
            false
        default: true
        }
    }

    /// Runs a request whose failure is either about its items — answered as a `.failure` to
    /// report per item — or about the request, thrown.
    func itemLevel<T>(_ body: () async throws(CKError) -> T) async throws(CKError) -> Result<T, CKError> {
        do {
            return .success(try await body())
        } catch {
            guard Self.isItemLevel(error) else { throw error }
            return .failure(error)
        }
    }

    /// A record the server sent, or the error of its assets' download (that record's alone).
    func receivedResult(_ wire: Record, in zoneID: CKRecordZone.ID) async -> Result<CKRecord, any Error> {
        do { return .success(try await received(wire, in: zoneID)) } catch { return .failure(error) }
    }

    /// A record the server sent, with its assets downloaded to local files.
    func received(_ wire: Record, in zoneID: CKRecordZone.ID) async throws -> CKRecord {
        let files = try await AssetFiles.download(wire.fields ?? [:], through: container)
        return CKRecord.from(wire: wire, zoneID: zoneID, assets: files)
    }
}
