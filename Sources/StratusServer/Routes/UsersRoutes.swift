import Hummingbird
import StratusCore
import StratusModel

/// `users/caller`, `users/current`, `users/discover` (GET and POST), `users/lookup/email`,
/// `users/lookup/id`. Apple documents them under `public/`; clients also send their own database
/// segment or none, so they are registered under every form (see ``buildRouter(_:)``).
struct UsersRoutes {
    let users: UserService
    let limits: ServiceLimits

    func register(on group: RouterGroup<DatabaseContext>) {
        group.get("users/caller", use: caller)
        group.get("users/current", use: current)
        group.get("users/discover", use: discoverAll)
        group.post("users/discover", use: discover)
        group.post("users/lookup/email", use: lookupEmail)
        group.post("users/lookup/id", use: lookupID)
    }

    @Sendable private func caller(_ request: Request, context: DatabaseContext) async throws -> Response {
        try JSONBody.response(try await users.caller(scope: context.scope))
    }

    @Sendable private func current(_ request: Request, context: DatabaseContext) async throws -> Response {
        try JSONBody.response(try await users.current(scope: context.scope))
    }

    @Sendable private func discoverAll(_ request: Request, context: DatabaseContext) async throws -> Response {
        try JSONBody.response(try await users.discoverAll(scope: context.scope))
    }

    @Sendable private func discover(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(DiscoverUsersRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await users.discover(body, scope: context.scope))
    }

    @Sendable private func lookupEmail(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(LookupUsersRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await users.lookup(body, byEmail: true, scope: context.scope))
    }

    @Sendable private func lookupID(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(LookupUsersRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await users.lookup(body, byEmail: false, scope: context.scope))
    }
}
