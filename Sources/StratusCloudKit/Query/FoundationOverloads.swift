#if !canImport(Darwin)
import Foundation
import StratusModel

// Foundation on Linux declares `NSPredicate(format:_:)`, `NSPredicate(format:argumentArray:)`,
// `NSSortDescriptor(key:ascending:)` and `NSSortDescriptor.key` unavailable. Swift prefers an
// available overload to an unavailable one, so these make CloudKit code written for Apple
// platforms compile and run unchanged: `NSPredicate(format: "a = %@", "x")` resolves here without
// ambiguity (checked with Swift 6.3 on Linux, from this module and from a module importing it).

extension NSPredicate {
    /// A predicate parsed from `predicateFormat` in the grammar CloudKit accepts
    /// (``PredicateParser``), for use in a `CKQuery`.
    ///
    /// Arguments are `Any` rather than `CVarArg` because Linux's Foundation objects (`NSNumber`,
    /// `NSDate`, CKRecord.Reference, …) aren't `CVarArg`; every call that compiles on Apple platforms
    /// compiles here. A format CloudKit would refuse doesn't trap: the error is kept and the query
    /// fails with `CKError.invalidArguments` when it runs.
    ///
    /// The predicate is for CloudKit only: `evaluate(with:)` answers `false`, and a `copy()` is a
    /// plain block predicate that CKQuery refuses (Linux's Foundation copies only the block).
    public convenience init(format predicateFormat: String, _ args: Any...) {
        let parsed = NSPredicate.parse(predicateFormat, args)
        self.init(block: { _, _ in false })
        PredicateRegistry.register(self, parsed)
    }

    /// A predicate parsed from `predicateFormat` with `arguments` substituted in order; see
    /// ``init(format:_:)``.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let parsed = NSPredicate.parse(predicateFormat, arguments ?? [])
        self.init(block: { _, _ in false })
        PredicateRegistry.register(self, parsed)
    }

    private static func parse(_ format: String, _ arguments: [Any]) -> Result<PredicateNode, PredicateError> {
        Result { () throws(PredicateError) -> PredicateNode in
            try PredicateParser.node(format: format, arguments: arguments, value: PredicateValues.fieldValue(of:))
        }
    }
}

/// The root of the key paths that carry a sort descriptor's key: `\SortKeyPathRoot.[key]` reads
/// back `key`.
struct SortKeyPathRoot: Sendable {
    subscript(key: String) -> String { key }
}

extension NSSortDescriptor {
    /// A descriptor sorting by the record key `key`, for use in a `CKQuery`.
    ///
    /// The key rides in the descriptor's key path (`\SortKeyPathRoot.[key]`), so copies keep it.
    /// The descriptor is for CloudKit only: comparing objects with it compares nothing.
    public convenience init(key: String?, ascending: Bool) {
        self.init(keyPath: \SortKeyPathRoot.[key ?? ""], ascending: ascending)
    }

    /// The key this descriptor sorts by, when it was made with ``init(key:ascending:)``; `nil` for
    /// a descriptor made from a Swift key path or with a `nil` key.
    public var key: String? {
        guard let path = keyPath as? KeyPath<SortKeyPathRoot, String> else { return nil }
        let key = SortKeyPathRoot()[keyPath: path]
        return key.isEmpty ? nil : key
    }
}
#endif
