import Hummingbird
import StratusCore
import StratusModel

/// `users/caller`, `users/current`, `users/discover` (GET and POST), `users/lookup/email`,
/// `users/lookup/id`. Apple documents them under `public/`; clients also send their own database
/// segment or none, so they are registered under every form (see ``buildRouter(_:)``).
struct UsersRoutes {
    let users: UserService

    func register(on group: RouterGroup<DatabaseContext>) {
        group.get("users/caller", use: caller)
        group.get("users/current", use: current)
        group.get("users/discover", use: discoverAll)
        group.post("users/discover", use: discover)
        group.post("users/lookup/email", use: lookupEmail)
        group.post("users/lookup/id", use: lookupID)
    }

    @Sendable private func caller(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        WireAnswer(try await users.caller(scope: context.scope))
    }

    @Sendable private func current(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        WireAnswer(try await users.current(scope: context.scope))
    }

    @Sendable private func discoverAll(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        WireAnswer(try await users.discoverAll(scope: context.scope))
    }

    @Sendable private func discover(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: DiscoverUsersRequest.self, context: context)
        return WireAnswer(try await users.discover(body, scope: context.scope))
    }

    @Sendable private func lookupEmail(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: LookupUsersRequest.self, context: context)
        return WireAnswer(try await users.lookup(body, byEmail: true, scope: context.scope))
    }

    @Sendable private func lookupID(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: LookupUsersRequest.self, context: context)
        return WireAnswer(try await users.lookup(body, byEmail: false, scope: context.scope))
    }
}
