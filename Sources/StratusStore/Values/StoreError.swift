/// The one error type the store throws. GRDB's (or PostgresNIO's) errors never cross the
/// store's boundary: they are translated into one of these kinds.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in storage terms.
    public enum Kind: Sendable, Hashable {
        /// The zone does not exist (or was deleted).
        case zoneNotFound
        /// A change token points below the zone's compaction horizon, or at another incarnation of the zone.
        case tokenExpired
        /// A uniqueness rule was violated (an email already taken, say).
        case duplicate
        /// The database is busy; retry.
        case busy
        /// The request asks for what the store refuses (a cursor of another query, a query too
        /// large for the engine); unlike other kinds, `detail` is written for the client.
        case invalid
        /// Anything else: I/O, corruption, a bug.
        case failure
    }

    public var kind: Kind
    /// Details for the log; never sent to clients, except for ``Kind/invalid``.
    public var detail: String

    public init(_ kind: Kind, _ detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "StoreError.\(kind): \(detail)" }
}
