import HTTPTypes
import Hummingbird

/// `Access-Control-Expose-Headers` on the answers a browser reads (Hummingbird's CORS middleware
/// sends it only on preflights, where browsers ignore it), so a web client can read
/// `Retry-After` and `X-Request-ID`. Runs inside the CORS middleware, on cross-origin requests.
struct ExposeHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let headers: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if request.headers[.origin] != nil, request.method != .options {
            response.headers[.accessControlExposeHeaders] = headers
        }
        return response
    }
}
