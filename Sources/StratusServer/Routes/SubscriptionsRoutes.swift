import Hummingbird
import StratusCore
import StratusModel

/// `subscriptions/list`, `subscriptions/lookup`, `subscriptions/modify`.
struct SubscriptionsRoutes {
    let subscriptions: SubscriptionService
    let limits: ServiceLimits

    func register(on group: RouterGroup<DatabaseContext>) {
        group.get("subscriptions/list", use: list)
        group.post("subscriptions/lookup", use: lookup)
        group.post("subscriptions/modify", use: modify)
    }

    /// `subscriptions/lookup` is also served without a database segment (as the reference writes it).
    func registerLookup(on group: RouterGroup<DatabaseContext>) {
        group.post("subscriptions/lookup", use: lookup)
    }

    @Sendable private func list(_ request: Request, context: DatabaseContext) async throws -> Response {
        try JSONBody.response(try await subscriptions.list(scope: context.scope))
    }

    @Sendable private func lookup(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(LookupSubscriptionsRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await subscriptions.lookup(body, scope: context.scope))
    }

    @Sendable private func modify(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(ModifySubscriptionsRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await subscriptions.modify(body, scope: context.scope))
    }
}
