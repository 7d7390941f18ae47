import Hummingbird
import StratusCore
import StratusModel

/// `records/resolve` (share metadata for short GUIDs) and `records/accept`. Apple documents them
/// under `public/`; they act on the share wherever it lives, so they are served under every
/// database segment and without one (see ``buildRouter(_:)``).
struct SharesRoutes {
    let shares: ShareService

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("records/resolve", use: resolve)
        group.post("records/accept", use: accept)
    }

    @Sendable private func resolve(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: ShortGUIDsRequest.self, context: context)
        return WireAnswer(try await shares.resolve(body, scope: context.scope))
    }

    @Sendable private func accept(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: ShortGUIDsRequest.self, context: context)
        return WireAnswer(try await shares.accept(body, scope: context.scope))
    }
}
