import Foundation
import StratusModel

/// A query in storage terms: record type, predicates (ANDed), sort keys and a keyset cursor.
/// Core builds it from the wire query; the store turns it into one SQL statement.
public struct RecordQuery: Sendable, Hashable {
    /// What a predicate or sort key reads.
    public enum Operand: Sendable, Hashable {
        /// A user field; `reference` reads the referenced record's name.
        case field(String, reference: Bool)
        case recordName
        case createdTimestamp
        case modifiedTimestamp
        case createdBy
        case modifiedBy
        /// Every STRING field's text, joined by spaces: what a token filter without a field
        /// searches (CKQuery's `self CONTAINS 'word'`). Only token comparators take it.
        case allStrings
    }

    /// One filter: the operand, the comparator and its value (a list for IN-like comparators).
    public struct Predicate: Sendable, Hashable {
        public var operand: Operand
        public var comparator: QueryComparator
        public var value: FieldValue
        /// Metres, with NEAR.
        public var distance: Double?

        public init(operand: Operand, comparator: QueryComparator, value: FieldValue, distance: Double? = nil) {
            self.operand = operand
            self.comparator = comparator
            self.value = value
            self.distance = distance
        }
    }

    /// One sort key; `near` sorts a LOCATION field by distance from that point.
    public struct SortKey: Sendable, Hashable {
        public var operand: Operand
        public var ascending: Bool
        public var near: Location?

        public init(operand: Operand, ascending: Bool, near: Location? = nil) {
            self.operand = operand
            self.ascending = ascending
            self.near = near
        }
    }

    public var zone: ZoneKey
    /// Every zone the query searches (`zoneWide`); `[zone]` unless set.
    public var zones: [ZoneKey]
    public var recordType: String
    public var predicates: [Predicate]
    public var sortKeys: [SortKey]
    public var limit: Int
    /// Where the previous page ended: the values of its last row's sort components.
    public var after: QueryCursor?
    /// When set, only these records may match (a participant's view of a shared hierarchy).
    public var names: Set<String>?

    public init(
        zone: ZoneKey, recordType: String, predicates: [Predicate], sortKeys: [SortKey], limit: Int, after: QueryCursor?,
        names: Set<String>? = nil
    ) {
        self.zone = zone
        self.zones = [zone]
        self.recordType = recordType
        self.predicates = predicates
        self.sortKeys = sortKeys
        self.limit = limit
        self.after = after
        self.names = names
    }
}

/// The position of a row in a query's order: the values of its sort components, the record
/// name last. Pages continue strictly after it, so records added meanwhile never repeat one.
public struct QueryCursor: Sendable, Hashable, Codable {
    /// A sort component's value.
    public enum Value: Sendable, Hashable, Codable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
    }

    public var values: [Value]

    public init(values: [Value]) {
        self.values = values
    }
}

/// One page of a query.
public struct QueryPage: Sendable, Hashable {
    public var records: [StoredRecord]
    /// The zone of each record, in order (several zones answer a `zoneWide` query).
    public var zones: [ZoneKey]
    /// Set when more rows follow: where the next page starts.
    public var next: QueryCursor?

    public init(records: [StoredRecord], zones: [ZoneKey], next: QueryCursor?) {
        self.records = records
        self.zones = zones
        self.next = next
    }
}

extension RecordQuery {
    /// Metres between two points on the earth's surface (haversine, radius 6 371 km): what NEAR
    /// compares with its distance. The SQLite store's `stratus_distance` is this function, and
    /// query subscriptions evaluate NEAR with it, so both decide alike.
    public static func metres(fromLatitude: Double, fromLongitude: Double, toLatitude: Double, toLongitude: Double) -> Double {
        let radians = [fromLatitude, fromLongitude, toLatitude, toLongitude].map { $0 * .pi / 180 }
        let dLat = radians[2] - radians[0]
        let dLon = radians[3] - radians[1]
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(radians[0]) * cos(radians[2]) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_000 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The words a token comparator (`CONTAINS_ALL_TOKENS`, `CONTAINS_ANY_TOKENS`) looks for:
    /// its value lower-cased, split at every character that is neither a letter nor a digit.
    public static func searchWords(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// What a token comparator reads as a space in a field's lower-cased text; a word matches
    /// where it stands between spaces (or the text's ends).
    public static let tokenPunctuation: [String] = [",", ".", "!", "?", ";", ":", "-", "(", ")", "/", "\""]
}
