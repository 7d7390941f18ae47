import Hummingbird
import StratusCore
import StratusModel

/// The account events an operator makes happen under `/stratus/v1/admin/`: a zone deleted,
/// purged or reset (`zones/reset`), a web auth token revoked, a storage quota set.
struct AccountEventRoutes {
    let admin: AdminService
    let identity: IdentityService

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.post("zones/reset", use: resetZone)
        group.post("web-auth-tokens/revoke", use: revoke)
        group.post("quotas", use: setQuota)
    }

    @Sendable private func resetZone(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: ZoneResetRequest.self, context: context)
        return WireAnswer(try await admin.resetZone(body))
    }

    @Sendable private func revoke(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: RevokeWebAuthTokenRequest.self, context: context)
        return WireAnswer(try await identity.revoke(webAuthToken: body.webAuthToken))
    }

    @Sendable private func setQuota(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: SetQuotaRequest.self, context: context)
        return WireAnswer(try await admin.setQuota(body))
    }
}
