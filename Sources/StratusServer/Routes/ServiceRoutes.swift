import Hummingbird
import StratusCore
import StratusModel

/// Stratus's own unauthenticated endpoints: health, the sign-in pointer behind `redirectURL`,
/// and a JSON echo (the HTTP stack's ceiling, measured by the benchmark beside real routes).
struct ServiceRoutes {
    let limits: ServiceLimits

    /// The body of `GET /stratus/v1/health`.
    struct Health: Codable, Sendable { var status: String }

    /// The body of `GET /stratus/v1/auth/signin`.
    struct SignInHelp: Codable, Sendable { var message: String; var tokenEndpoint: String }

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.get("health") { _, _ in try JSONBody.response(Health(status: "ok")) }
        group.get("auth/signin") { _, _ in
            try JSONBody.response(SignInHelp(
                message: "Stratus has no interactive sign-in: an administrator mints web auth tokens.",
                tokenEndpoint: "POST /stratus/v1/admin/web-auth-tokens"
            ))
        }
        group.post("echo", use: echo)
    }

    /// Decodes the body as a record dictionary and encodes it back: the same JSON work as a
    /// single-record request, without auth or storage.
    @Sendable private func echo(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(ModifyRecordsRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(body)
    }
}
