import Hummingbird
import StratusCore
import StratusModel

/// `/stratus/v1/admin/keys`: server-to-server public keys — POST registers one (PEM in, key ID
/// out), DELETE `/{keyID}` revokes it.
struct ServerKeyRoutes {
    let serverKeys: ServerKeys

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.post("keys", use: add)
        group.delete("keys/:keyID", use: revoke)
    }

    @Sendable private func add(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: RegisterServerKeyRequest.self, context: context)
        return WireAnswer(try await serverKeys.register(body), status: .created)
    }

    @Sendable private func revoke(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let keyID = context.parameters.get("keyID") ?? ""
        try await serverKeys.revoke(keyID: keyID)
        return WireAnswer(RegisterServerKeyResponse(keyID: keyID))
    }
}
