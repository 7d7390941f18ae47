/// A query comparator, as CloudKit Web Services spells it.
public enum QueryComparator: String, Sendable, Hashable, Codable, CaseIterable {
    case equals = "EQUALS"
    case notEquals = "NOT_EQUALS"
    case lessThan = "LESS_THAN"
    case lessThanOrEquals = "LESS_THAN_OR_EQUALS"
    case greaterThan = "GREATER_THAN"
    case greaterThanOrEquals = "GREATER_THAN_OR_EQUALS"
    case near = "NEAR"
    case containsAllTokens = "CONTAINS_ALL_TOKENS"
    case containsAnyTokens = "CONTAINS_ANY_TOKENS"
    case `in` = "IN"
    case notIn = "NOT_IN"
    case beginsWith = "BEGINS_WITH"
    case notBeginsWith = "NOT_BEGINS_WITH"
    case listContains = "LIST_CONTAINS"
    case notListContains = "NOT_LIST_CONTAINS"
    case listContainsAny = "LIST_CONTAINS_ANY"
    case notListContainsAny = "NOT_LIST_CONTAINS_ANY"
    case listContainsAll = "LIST_CONTAINS_ALL"
    case notListContainsAll = "NOT_LIST_CONTAINS_ALL"
    case listMemberBeginsWith = "LIST_MEMBER_BEGINS_WITH"
    case notListMemberBeginsWith = "NOT_LIST_MEMBER_BEGINS_WITH"
}

/// One filter of a query: `{ comparator, fieldName | systemFieldName, fieldValue, distance? }`.
public struct QueryFilter: Sendable, Hashable, Codable {
    public var comparator: QueryComparator
    public var fieldName: String?
    public var systemFieldName: String?
    public var fieldValue: Field
    /// Metres, with NEAR.
    public var distance: Double?

    public init(_ comparator: QueryComparator, field: String, _ value: Field, distance: Double? = nil) {
        self.comparator = comparator
        self.fieldName = field
        self.fieldValue = value
        self.distance = distance
    }

    public init(_ comparator: QueryComparator, systemField: String, _ value: Field) {
        self.comparator = comparator
        self.systemFieldName = systemField
        self.fieldValue = value
    }
}

/// One sort key: `{ fieldName | systemFieldName, ascending, relativeLocation? }`.
public struct QuerySort: Sendable, Hashable, Codable {
    public var fieldName: String?
    public var systemFieldName: String?
    /// Defaults to `true`.
    public var ascending: Bool?
    /// Sort a LOCATION field by distance from this location.
    public var relativeLocation: Field?

    public init(field: String, ascending: Bool = true) {
        self.fieldName = field
        self.ascending = ascending
    }

    public init(systemField: String, ascending: Bool = true) {
        self.systemFieldName = systemField
        self.ascending = ascending
    }
}

/// The query dictionary: a record type, filters (ANDed) and sort keys.
public struct Query: Sendable, Hashable, Codable {
    public var recordType: String
    public var filterBy: [QueryFilter]?
    public var sortBy: [QuerySort]?

    public init(recordType: String, filterBy: [QueryFilter]? = nil, sortBy: [QuerySort]? = nil) {
        self.recordType = recordType
        self.filterBy = filterBy
        self.sortBy = sortBy
    }
}

/// `POST …/records/query`.
public struct QueryRecordsRequest: Sendable, Hashable, Codable {
    public var query: Query
    public var zoneID: ZoneID?
    public var resultsLimit: Int?
    public var continuationMarker: String?
    public var desiredKeys: [String]?
    public var zoneWide: Bool?
    public var numbersAsStrings: Bool?

    public init(query: Query, zoneID: ZoneID? = nil, resultsLimit: Int? = nil, continuationMarker: String? = nil, desiredKeys: [String]? = nil) {
        self.query = query
        self.zoneID = zoneID
        self.resultsLimit = resultsLimit
        self.continuationMarker = continuationMarker
        self.desiredKeys = desiredKeys
    }
}

/// The answer to records/query: a page, and `continuationMarker` while more results exist.
public struct QueryRecordsResponse: Sendable, Hashable, Codable {
    public var records: [RecordResult]
    public var continuationMarker: String?

    public init(records: [RecordResult], continuationMarker: String?) {
        self.records = records
        self.continuationMarker = continuationMarker
    }
}
