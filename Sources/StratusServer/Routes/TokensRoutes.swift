import Hummingbird
import StratusCore
import StratusModel

/// `tokens/create` and `tokens/register`: push tokens, each with a webcourier URL on this host.
struct TokensRoutes {
    let tokens: PushTokenService

    /// The empty success of tokens/register.
    struct Empty: Codable, Sendable {}

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("tokens/create", use: create)
        group.post("tokens/register", use: registerToken)
    }

    @Sendable private func create(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: PushTokenRequest.self, context: context)
        let created = try await tokens.create(body, scope: context.scope) { token in WebcourierRoutes.url(for: token, request: request) }
        return WireAnswer(created)
    }

    @Sendable private func registerToken(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: PushTokenRequest.self, context: context)
        try await tokens.register(body, scope: context.scope)
        return WireAnswer(Empty())
    }
}
