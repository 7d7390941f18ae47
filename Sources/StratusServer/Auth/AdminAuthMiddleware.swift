import Hummingbird
import StratusCore
import StratusModel

/// Guards `/stratus/v1/admin/…`: the request must carry `Authorization: Bearer <admin token>`.
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext

    let identity: IdentityService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw CoreError(.authenticationFailed, "admin endpoints need Authorization: Bearer <admin token>")
        }
        guard try await identity.isAdmin(token: String(header.dropFirst("Bearer ".count))) else {
            throw CoreError(.authenticationFailed, "invalid admin token")
        }
        return try await next(request, context)
    }
}

/// Lets a caller on the same host through, and anyone else with the admin token (`/metrics`:
/// a local scraper needs no secret, the network does).
struct LoopbackOrAdminMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext

    let identity: IdentityService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = context.channel.remoteAddress?.ipAddress
        if address == "127.0.0.1" || address == "::1" || address == "::ffff:127.0.0.1" { return try await next(request, context) }
        return try await AdminAuthMiddleware(identity: identity).handle(request, context: context, next: next)
    }
}
