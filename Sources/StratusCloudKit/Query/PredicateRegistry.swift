import Foundation
import StratusModel
import Synchronization

/// What each `NSPredicate(format:)` made on Linux parsed to, and how any NSPredicate a CKQuery is
/// given becomes wire filters.
///
/// Linux's Foundation can't keep a format in an NSPredicate, so StratusCloudKit's overloads
/// (`FoundationOverloads.swift`) make a block predicate and record the parse here, keyed by the
/// object's identity. Entries hold the predicate weakly and a lookup checks that the entry's
/// object is still the one asked about, so an identifier reused after a predicate is freed never
/// finds a stale entry; dead entries are pruned as entries are added. On Apple platforms Foundation
/// parses formats itself and ``resolve(_:value:)`` walks its tree instead (``DarwinPredicateWalker``).
enum PredicateRegistry {
    /// One recorded predicate.
    ///
    /// `@unchecked Sendable`: the weak reference is only compared by identity, never used to reach
    /// the predicate's state, and the entry is read and written under ``state``'s lock.
    private struct Entry: @unchecked Sendable {
        weak var predicate: NSPredicate?
        let node: Result<PredicateNode, PredicateError>
    }

    private struct State: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Prune dead entries when the table reaches this size (then twice the live count).
        var pruneAt = 64
    }

    private static let state = Mutex(State())

    /// Records what `predicate`'s format parsed to (or why it didn't).
    static func register(_ predicate: NSPredicate, _ node: Result<PredicateNode, PredicateError>) {
        let id = ObjectIdentifier(predicate)
        let entry = Entry(predicate: predicate, node: node)
        state.withLock { state in
            state.entries[id] = entry
            guard state.entries.count >= state.pruneAt else { return }
            state.entries = state.entries.filter { $0.value.predicate != nil }
            state.pruneAt = max(64, state.entries.count * 2)
        }
    }

    /// A predicate standing for wire filters (a restored query's, a fetched subscription's): CKQuery
    /// sends the same filters again. `NSPredicate(value: true)` when there are none.
    static func predicate(for filters: [QueryFilter]) -> NSPredicate {
        guard !filters.isEmpty else { return NSPredicate(value: true) }
        let predicate = NSPredicate(block: { _, _ in false })
        register(predicate, .success(.filters(filters)))
        return predicate
    }

    /// What `predicate`'s format parsed to; `nil` when it wasn't made by `NSPredicate(format:)` here.
    static func node(of predicate: NSPredicate) -> Result<PredicateNode, PredicateError>? {
        let id = ObjectIdentifier(predicate)
        return state.withLock { state -> Result<PredicateNode, PredicateError>? in
            guard let entry = state.entries[id], let live = entry.predicate, ObjectIdentifier(live) == id else { return nil }
            return entry.node
        }
    }

    /// The filters of a predicate made by `NSPredicate(format:)` here, or why CloudKit would refuse
    /// it; `nil` when it wasn't made that way.
    static func parsed(_ predicate: NSPredicate) -> Result<ParsedPredicate, PredicateError>? {
        guard let node = node(of: predicate) else { return nil }
        return node.flatMap { node in
            Result { () throws(PredicateError) -> ParsedPredicate in try PredicateLowering.lower(node) }
        }
    }

    /// The filters of any NSPredicate a CKQuery is given, or why CloudKit would refuse it.
    ///
    /// Handles format predicates, `NSPredicate(value:)` (all records, or none) and
    /// `NSCompoundPredicate`: AND of any of these, NOT of one (a comparison CloudKit can negate),
    /// never OR. Block predicates are refused, as CloudKit refuses them. `value` converts the
    /// constants of Foundation's own predicate tree on Apple platforms; on Linux arguments were
    /// converted when the predicate was made.
    static func resolve(
        _ predicate: NSPredicate, value: (Any) -> FieldValue? = PredicateValues.fieldValue(of:)
    ) -> Result<ParsedPredicate, PredicateError> {
        Result { () throws(PredicateError) -> ParsedPredicate in
            try PredicateLowering.lower(try node(for: predicate, value: value))
        }
    }

    /// `predicate` as a ``PredicateNode``.
    /// - Throws: ``PredicateError`` for OR, a block predicate, or a format that didn't parse.
    static func node(for predicate: NSPredicate, value: (Any) -> FieldValue?) throws(PredicateError) -> PredicateNode {
        #if canImport(Darwin)
        return try DarwinPredicateWalker.node(for: predicate, value: value)
        #else
        if let compound = predicate as? NSCompoundPredicate {
            var parts: [PredicateNode] = []
            for part in compound.subpredicates { parts.append(try node(for: part, value: value)) }
            switch compound.compoundPredicateType {
            case .and:
                return .and(parts)
            case .not:
                guard parts.count == 1, let only = parts.first else { throw PredicateError("NOT takes exactly one predicate") }
                return .not(only)
            case .or:
                throw PredicateError.orUnsupported
            }
        }
        if let registered = node(of: predicate) { return try registered.get() }
        // Linux's NSPredicate(value:) predicates equal each other by value; block ones equal nothing.
        if predicate.isEqual(NSPredicate(value: true)) { return .constant(true) }
        if predicate.isEqual(NSPredicate(value: false)) { return .constant(false) }
        throw PredicateError(
            "CloudKit accepts only predicates made with NSPredicate(format:), NSPredicate(value:) or NSCompoundPredicate, "
                + "not block predicates (on Linux, a copy of a format predicate is one: pass the original)"
        )
        #endif
    }
}
