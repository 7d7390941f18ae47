import Hummingbird
import StratusCore
import StratusModel

/// Stratus's own unauthenticated endpoints: health and a JSON echo (the HTTP stack's ceiling, measured by the benchmark beside real routes).
struct ServiceRoutes {
    let limits: ServiceLimits

    /// The body of `GET /stratus/v1/health`.
    struct Health: Codable, Sendable { var status: String }

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.get("health") { _, _ in try JSONBody.response(Health(status: "ok")) }
        group.post("echo", use: echo)
    }

    /// Decodes the body as a record dictionary and encodes it back: the same JSON work as a
    /// single-record request, without auth or storage.
    @Sendable private func echo(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(ModifyRecordsRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(body)
    }
}
