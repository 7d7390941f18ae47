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
