import Hummingbird
import StratusCore
import StratusModel

/// `tokens/create` and `tokens/register`: push tokens, each with a webcourier URL on this host.
struct TokensRoutes {
    let tokens: PushTokenService
    let limits: ServiceLimits

    /// The empty success of tokens/register.
    struct Empty: Codable, Sendable {}

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("tokens/create", use: create)
        group.post("tokens/register", use: registerToken)
    }

    @Sendable private func create(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(PushTokenRequest.self, from: request, limit: limits.requestBytes)
        let created = try await tokens.create(body, scope: context.scope) { token in WebcourierRoutes.url(for: token, request: request) }
        return try JSONBody.response(created)
    }

    @Sendable private func registerToken(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(PushTokenRequest.self, from: request, limit: limits.requestBytes)
        try await tokens.register(body, scope: context.scope)
        return try JSONBody.response(Empty())
    }
}
