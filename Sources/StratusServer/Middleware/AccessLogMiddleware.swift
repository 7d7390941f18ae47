import Foundation
import Hummingbird
import Logging
import StratusCore
import StratusModel

/// One log line per request: method, path, status, then what the request did — container,
/// environment, database, zones, account, device, the CKWS error code, per-item errors inside a
/// 200 — and its duration. The path never carries the query: CKWS credentials travel there.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext

    /// Where each line is also kept for the console's Requests view.
    let recent: RecentRequests

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let facts = context.facts.facts
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        // The line's metadata is built only where the line is written (not at `--log-level error`).
        if context.logger.logLevel <= .info {
            context.logger.info("\(request.method) \(request.uri.path) \(response.status.code)", metadata: metadata(facts, response, milliseconds))
        }
        // Only CKWS requests (the console and the admin API would list themselves).
        if let database = facts.database {
            recent.record(RequestRecord(
                time: Int64((Date().timeIntervalSince1970 * 1000).rounded()), method: "\(request.method)", path: request.uri.path,
                status: response.status.code, container: database.container, environment: database.environment, database: database.scope,
                zones: facts.zones, userRecordName: facts.account, deviceID: facts.deviceID, errorCode: facts.errorCode?.rawValue,
                itemErrors: facts.itemErrors, durationMilliseconds: milliseconds
            ))
        }
        return response
    }

    private func metadata(_ facts: RequestFacts, _ response: Response, _ milliseconds: Double) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["status": "\(response.status.code)", "duration_ms": "\(milliseconds)"]
        if let database = facts.database {
            metadata["container"] = .string(database.container)
            metadata["environment"] = .string(database.environment.rawValue)
            metadata["database"] = .string(database.scope.rawValue)
        }
        if !facts.zones.isEmpty { metadata["zones"] = .string(facts.zones.joined(separator: ",")) }
        if let account = facts.account { metadata["account"] = .string(account) }
        if let device = facts.deviceID { metadata["device"] = .string(device) }
        if let code = facts.errorCode { metadata["error"] = .string(code.rawValue) }
        if !facts.itemErrors.isEmpty {
            metadata["item_errors"] = .string(facts.itemErrors.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","))
        }
        return metadata
    }
}
