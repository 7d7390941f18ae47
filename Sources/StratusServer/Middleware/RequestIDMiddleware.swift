import Hummingbird
import Logging

/// Gives every request an ID of one shape, 32 lowercase hex digits (Hummingbird's own drops the
/// leading zeros of its random half), so the `uuid` of a request-level error, its
/// `X-Request-ID` header, the log lines and per-item `uuid`s all read alike. Runs first.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = context.id
        guard id.count < 32 else { return try await next(request, context) }
        var context = context
        context.logger[metadataKey: "hb.request.id"] = .string(String(repeating: "0", count: 32 - id.count) + id)
        return try await next(request, context)
    }
}
