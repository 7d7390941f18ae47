import NIOConcurrencyHelpers
import StratusCore
import StratusModel

/// What one request did, gathered while it is handled, for its access-log line: the database
/// and caller (credential resolution), the zones it named and the per-item errors inside a 200
/// (the routes), the CKWS error code of a failed request (the error middleware).
public struct RequestFacts: Sendable {
    public var database: DatabaseRef?
    public var account: String?
    public var deviceID: String?
    public var zones: [String] = []
    public var errorCode: ServerErrorCode?
    /// Per-item errors inside a 200, by `serverErrorCode`.
    public var itemErrors: [String: Int] = [:]

    public init() {}

    /// Names the zones a request acts on (each once, in order).
    mutating func name(zones ids: [ZoneID?]) {
        for case let id? in ids where !zones.contains(id.zoneName) { zones.append(id.zoneName) }
    }

    /// Counts the errors among a batch's entries.
    mutating func count<Success, Failure: ItemFailure>(_ results: [ItemResult<Success, Failure>]) {
        for case .failure(let error) in results { itemErrors[error.serverErrorCode.rawValue, default: 0] += 1 }
    }
}

/// An entry error of a batch answer (a record's, a zone's).
protocol ItemFailure: Codable, Sendable, Hashable, Error {
    var serverErrorCode: ServerErrorCode { get }
}

extension RecordError: ItemFailure {}
extension ZoneError: ItemFailure {}

/// The facts of one request, shared by its middleware and its route (each works on its own copy
/// of the request context).
public final class RequestFactsBox: Sendable {
    private let box = NIOLockedValueBox(RequestFacts())

    public init() {}

    /// Adds to the facts.
    public func update(_ body: (inout RequestFacts) -> Void) { box.withLockedValue { body(&$0) } }

    /// The facts so far.
    public var facts: RequestFacts { box.withLockedValue { $0 } }
}
