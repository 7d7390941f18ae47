import Hummingbird
import Logging

/// One log line per request: method, route template, status, duration. Never the URI: CKWS
/// credentials travel in the query string.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        context.logger.info(
            "\(request.method) \(context.endpointPath ?? "unmatched")",
            metadata: [
                "status": "\(response.status.code)",
                "duration_ms": "\(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)",
            ]
        )
        return response
    }
}
