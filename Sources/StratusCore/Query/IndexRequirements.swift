import StratusModel
import StratusStore

/// What a query needs from the schema in production: each filtered field QUERYABLE (SEARCHABLE
/// for token comparators), each sort field SORTABLE, the record type known. Development answers
/// every query without indexes, unless the server runs with `--require-indexes`
/// (``CoreConfiguration/requireIndexes``): then development is checked as production is, and in
/// both a query without filters needs a QUERYABLE index on `recordName`, as Apple documents
/// ("a record type cannot be queried until recordName has a QUERYABLE index").
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
        case .allStrings: "___allStrings"
        }
    }

    /// The name an index on `fieldName` is stored under: a system index name's other spelling
    /// (`___recordID`, as Apple's schema files write it) becomes the one queries look up
    /// (`___recordId`); any other name is kept as it is.
    static func storedName(of fieldName: String) -> String {
        guard fieldName.hasPrefix("___"), let operand = QueryTranslation.systemFields[fieldName] else { return fieldName }
        return indexName(of: operand)
    }

    /// - Parameter recordNameForTypeQueries: whether a query without filters needs a QUERYABLE
    ///   index on `recordName` (`--require-indexes`).
    /// - Throws: `BAD_REQUEST` with the CloudKit Console's wording ("Field 'x' is not marked queryable").
    static func check(
        _ query: RecordQuery, schema: SchemaCache.Schema, indexes: SchemaCache.Indexes, recordNameForTypeQueries: Bool = false
    ) throws(CoreError) {
        guard schema[query.recordType] != nil else {
            throw CoreError.badRequest("Did not find record type: \(query.recordType)")
        }
        let typeIndexes = indexes[query.recordType] ?? [:]
        func require(_ kind: IndexKind, _ operand: RecordQuery.Operand) throws(CoreError) {
            // A search of every string field uses the SEARCHABLE fields there are: none is named.
            if operand == .allStrings { return }
            let name = indexName(of: operand)
            guard typeIndexes[name]?.contains(kind) == true else {
                let shown = operand == .recordName ? "recordName" : name
                throw CoreError.badRequest("Field '\(shown)' is not marked \(kind.rawValue.lowercased())")
            }
        }
        if recordNameForTypeQueries && query.predicates.isEmpty {
            try require(.queryable, .recordName)
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
