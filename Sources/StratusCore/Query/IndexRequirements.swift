import StratusModel
import StratusStore

/// What a query needs from the schema in production: each filtered field QUERYABLE (SEARCHABLE
/// for token comparators), each sort field SORTABLE, the record type known. Development answers
/// every query without indexes, as CloudKit's development environment does.
enum IndexRequirements {
    /// The index name of an operand: the field name, or the system field's index name.
    static func indexName(of operand: RecordQuery.Operand) -> String {
        switch operand {
        case .field(let name, _): name
        case .recordName: "___recordId"
        case .createdTimestamp: "___createTime"
        case .modifiedTimestamp: "___modTime"
        case .createdBy: "___createdBy"
        case .modifiedBy: "___modifiedBy"
        }
    }

    /// - Throws: `BAD_REQUEST` with the CloudKit Console's wording ("Field 'x' is not marked queryable").
    static func check(_ query: RecordQuery, schema: SchemaCache.Schema, indexes: SchemaCache.Indexes) throws(CoreError) {
        guard schema[query.recordType] != nil else {
            throw CoreError.badRequest("Did not find record type: \(query.recordType)")
        }
        let typeIndexes = indexes[query.recordType] ?? [:]
        func require(_ kind: IndexKind, _ operand: RecordQuery.Operand) throws(CoreError) {
            let name = indexName(of: operand)
            guard typeIndexes[name]?.contains(kind) == true else {
                let shown = operand == .recordName ? "recordName" : name
                throw CoreError.badRequest("Field '\(shown)' is not marked \(kind.rawValue.lowercased())")
            }
        }
        for predicate in query.predicates {
            let searchable = predicate.comparator == .containsAllTokens || predicate.comparator == .containsAnyTokens
            try require(searchable ? .searchable : .queryable, predicate.operand)
        }
        for key in query.sortKeys {
            try require(.sortable, key.operand)
        }
    }
}
