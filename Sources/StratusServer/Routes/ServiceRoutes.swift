import Hummingbird
import StratusCore
import StratusModel

/// Stratus's own unauthenticated endpoints: health and a JSON echo (the HTTP stack's ceiling, measured by the benchmark beside real routes).
struct ServiceRoutes {

    /// The body of `GET /stratus/v1/health`.
    struct Health: Codable, Sendable { var status: String }

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.get("health") { _, _ in WireAnswer(Health(status: "ok")) }
        group.post("echo", use: echo)
    }

    /// Decodes the body as a record dictionary and encodes it back: the same JSON work as a
    /// single-record request, without auth or storage.
    @Sendable private func echo(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: ModifyRecordsRequest.self, context: context)
        // What records/modify refuses before any work, the echo refuses too (its answer is a request).
        if let problem = body.clientChangeTokenProblem { throw CoreError.badRequest(problem) }
        return WireAnswer(body)
    }
}
