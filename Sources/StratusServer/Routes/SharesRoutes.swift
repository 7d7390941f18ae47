import Hummingbird
import StratusCore
import StratusModel

/// `records/resolve` (share metadata for short GUIDs) and `records/accept`. Apple documents them
/// under `public/`; they act on the share wherever it lives, so they are served under every
/// database segment and without one (see ``buildRouter(_:)``).
struct SharesRoutes {
    let shares: ShareService
    let limits: ServiceLimits

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("records/resolve", use: resolve)
        group.post("records/accept", use: accept)
    }

    @Sendable private func resolve(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(ShortGUIDsRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await shares.resolve(body, scope: context.scope), extensions: WireExtensions(request))
    }

    @Sendable private func accept(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(ShortGUIDsRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await shares.accept(body, scope: context.scope), extensions: WireExtensions(request))
    }
}
