import Foundation
import StratusModel

/// A query: a record type, a predicate in the grammar CloudKit accepts, and sort descriptors.
// `@unchecked Sendable` as Apple declares it: its predicate (an `NSPredicate`, not `Sendable`) is
// never changed after the query is made, and `sortDescriptors` is set before the query is run.
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
            // A location sort is by distance from its point (CKWS's `relativeLocation`).
            if let byDistance = descriptor as? CKLocationSortDescriptor {
                sorts.append(try byDistance.wireSort())
                continue
            }
            guard let sort = SortRegistry.sort(descriptor) else {
                throw CKError(.invalidArguments, "a sort descriptor needs a key (NSSortDescriptor(key:ascending:))")
            }
            sorts.append(sort)
        }
        let query = Query(recordType: recordType, filterBy: parsed.filters.isEmpty ? nil : parsed.filters, sortBy: sorts.isEmpty ? nil : sorts)
        return (query, parsed.matchesNothing)
    }

    public override var description: String { "<CKQuery: \(recordType), \(sortDescriptors?.count ?? 0) sort descriptors>" }

    // MARK: - Coding

    public static var supportsSecureCoding: Bool { true }

    /// Archives the record type, the predicate as the filters CloudKit runs (Linux's
    /// NSPredicate keeps no format to archive) and the sort descriptors' keys and directions.
    public func encode(with coder: NSCoder) {
        coder.encode(recordType as NSString, forKey: "RecordType")
        if let parsed = try? PredicateRegistry.resolve(predicate).get() {
            if let data = try? JSONEncoder().encode(parsed.filters) { coder.encode(data as NSData, forKey: "Filters") }
            coder.encode(parsed.matchesNothing, forKey: "MatchesNothing")
        }
        let sorts = (sortDescriptors ?? []).compactMap { descriptor in descriptor.key.map { ($0, descriptor.ascending) } }
        coder.encode(sorts.map { $0.0 as NSString } as NSArray, forKey: "SortKeys")
        coder.encode(sorts.map { NSNumber(value: $0.1) } as NSArray, forKey: "SortAscending")
    }

    /// A query from an archive of ``encode(with:)``: it runs as the archived one did. One whose
    /// predicate CloudKit refused (or one archived elsewhere, with other keys) restores with a
    /// predicate CloudKit refuses too: running it fails `invalidArguments`, never matches all.
    public init?(coder: NSCoder) {
        guard let type = coder.string("RecordType") else { return nil }
        recordType = type
        if coder.containsValue(forKey: "MatchesNothing"), coder.decodeBool(forKey: "MatchesNothing") {
            predicate = NSPredicate(value: false)
        } else if let data = coder.data("Filters"), let filters = try? JSONDecoder().decode([QueryFilter].self, from: data) {
            predicate = PredicateRegistry.predicate(for: filters)
        } else {
            predicate = NSPredicate(block: { _, _ in false })
        }
        let keys = coder.object(ofClasses: [NSArray.self, NSString.self], "SortKeys") as? [String] ?? []
        let ascending = coder.object(ofClasses: [NSArray.self, NSNumber.self], "SortAscending") as? [NSNumber] ?? []
        if !keys.isEmpty {
            sortDescriptors = zip(keys, ascending).map { NSSortDescriptor(key: $0, ascending: $1.boolValue) }
        }
    }
}

extension CKDatabase {
    /// One page of a query's results, and the cursor of the next while more match. Without a
    /// zone the query searches every zone of the database.
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
        var request = QueryRecordsRequest(
            query: query, zoneID: zoneID?.wire, resultsLimit: limit, continuationMarker: marker, desiredKeys: desiredKeys
        )
        // A query that names no zone searches every zone of the database, as on Apple's service
        // (the shared database has no such query: there it is the default zone's, and refused).
        if zoneID == nil, databaseScope != .shared { request.zoneWide = true }
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
