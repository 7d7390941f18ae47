import Hummingbird
import StratusCore
import StratusModel

/// `subscriptions/list`, `subscriptions/lookup`, `subscriptions/modify`.
struct SubscriptionsRoutes {
    let subscriptions: SubscriptionService

    func register(on group: RouterGroup<DatabaseContext>) {
        group.get("subscriptions/list", use: list)
        group.post("subscriptions/lookup", use: lookup)
        group.post("subscriptions/modify", use: modify)
    }

    /// `subscriptions/lookup` is also served without a database segment (as the reference writes it).
    func registerLookup(on group: RouterGroup<DatabaseContext>) {
        group.post("subscriptions/lookup", use: lookup)
    }

    @Sendable private func list(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        WireAnswer(try await subscriptions.list(scope: context.scope))
    }

    @Sendable private func lookup(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: LookupSubscriptionsRequest.self, context: context)
        return WireAnswer(try await subscriptions.lookup(body, scope: context.scope))
    }

    @Sendable private func modify(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: ModifySubscriptionsRequest.self, context: context)
        return WireAnswer(try await subscriptions.modify(body, scope: context.scope))
    }
}
