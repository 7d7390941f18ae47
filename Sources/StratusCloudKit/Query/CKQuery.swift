import Foundation
import StratusModel

/// A query: a record type, a predicate in the grammar CloudKit accepts, and sort descriptors.
public final class CKQuery: NSObject, NSSecureCoding, @unchecked Sendable {
    public let recordType: CKRecord.RecordType
    public let predicate: NSPredicate
    public var sortDescriptors: [NSSortDescriptor]?

    public init(recordType: CKRecord.RecordType, predicate: NSPredicate) {
        self.recordType = recordType
        self.predicate = predicate
    }

    /// The wire query.
    /// - Throws: `invalidArguments` for a predicate or sort CloudKit does not accept.
    func wire() throws(CKError) -> (query: Query, matchesNothing: Bool) {
        let parsed: ParsedPredicate
        switch PredicateRegistry.resolve(predicate) {
        case .success(let found): parsed = found
        case .failure(let error): throw CKError(.invalidArguments, "the query's predicate: \(error.message)")
        }
        var sorts: [QuerySort] = []
        for descriptor in sortDescriptors ?? [] {
            guard let sort = SortRegistry.sort(descriptor) else {
                throw CKError(.invalidArguments, "a sort descriptor needs a key (NSSortDescriptor(key:ascending:))")
            }
            sorts.append(sort)
        }
        let query = Query(recordType: recordType, filterBy: parsed.filters.isEmpty ? nil : parsed.filters, sortBy: sorts.isEmpty ? nil : sorts)
        return (query, parsed.matchesNothing)
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(recordType as NSString, forKey: "recordType")
    }

    /// Queries are not restored from archives here (their predicate is not archivable on Linux).
    public init?(coder: NSCoder) { nil }
}

extension CKDatabase {
    /// One page of a query's results, and the cursor of the next while more match.
    public func records(
        matching query: CKQuery, inZoneWith zoneID: CKRecordZone.ID? = nil, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults
    ) async throws -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?) {
        let (wire, matchesNothing) = try query.wire()
        if matchesNothing { return ([], nil) }
        return try await page(wire, zoneID: zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit, marker: nil)
    }

    /// The next page after `queryCursor`.
    public func records(
        continuingMatchFrom queryCursor: CKQueryOperation.Cursor, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults
    ) async throws -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?) {
        try await page(queryCursor.query, zoneID: queryCursor.zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit, marker: queryCursor.marker)
    }

    private func page(
        _ query: Query, zoneID: CKRecordZone.ID?, desiredKeys: [String]?, resultsLimit: Int, marker: String?
    ) async throws -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?) {
        let limit = resultsLimit > 0 && resultsLimit != CKQueryOperation.maximumResults ? resultsLimit : nil
        let request = QueryRecordsRequest(
            query: query, zoneID: zoneID?.wire, resultsLimit: limit, continuationMarker: marker, desiredKeys: desiredKeys
        )
        let response = try await post("records/query", request, as: QueryRecordsResponse.self)
        let zone = zoneID ?? .default
        var results: [(CKRecord.ID, Result<CKRecord, any Error>)] = []
        for entry in response.records {
            switch entry {
            case .success(let wire):
                let id = CKRecord.ID(recordName: wire.recordName ?? "", zoneID: CKRecordZone.ID.resolving(wire.zoneID, in: zone))
                results.append((id, await receivedResult(wire, in: zone)))
            case .failure(let error):
                let id = CKRecord.ID(recordName: error.recordName ?? "", zoneID: zone)
                results.append((id, .failure(CKError(error, client: nil, zoneID: zone))))
            }
        }
        let cursor = response.continuationMarker.map { CKQueryOperation.Cursor(query: query, zoneID: zoneID, marker: $0) }
        return (results, cursor)
    }
}
