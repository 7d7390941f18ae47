import Foundation
import StratusModel

/// Sort descriptor keys as wire sort keys: metadata keys (`creationDate`, `modificationDate`,
/// `recordID`, …) become a `systemFieldName`, as in filters (``SystemKeys``); any other key a
/// `fieldName`.
enum SortKeys {
    /// The wire sort key for `key`.
    static func sort(key: String, ascending: Bool) -> QuerySort {
        if let system = SystemKeys.systemFieldNames[key] { return QuerySort(systemField: system, ascending: ascending) }
        return QuerySort(field: key, ascending: ascending)
    }
}

/// What a CKQuery's `NSSortDescriptor`s sort by.
///
/// Apple platforms keep the key in the descriptor. On Linux, where Foundation has no
/// `NSSortDescriptor(key:ascending:)`, StratusCloudKit's overload keeps it in the descriptor's key
/// path (see `FoundationOverloads.swift`) and reads it back as `key`, so no side table is needed and
/// copies (`copy()`, `reversedSortDescriptor`) keep their key.
enum SortRegistry {
    /// The wire sort key of `descriptor`; `nil` when it has no key CloudKit can sort by (a
    /// descriptor made from a Swift key path, a `nil` or malformed key), which CKQuery reports as
    /// `invalidArguments`. Location sorts (`CKLocationSortDescriptor`) are the caller's to handle
    /// first: this sees only the key.
    static func sort(_ descriptor: NSSortDescriptor) -> QuerySort? {
        guard let key = descriptor.key, !key.isEmpty else { return nil }
        guard (try? SystemKeys.target(for: key)) != nil else { return nil }
        return SortKeys.sort(key: key, ascending: descriptor.ascending)
    }
}
