import Hummingbird
import StratusCore
import StratusModel

/// `assets/upload` (upload URLs) and `assets/rereference` (fresh receipts for stored assets).
struct AssetsRoutes {
    let assets: AssetService
    let limits: ServiceLimits

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("assets/upload", use: upload)
        group.post("assets/rereference", use: rereference)
    }

    @Sendable private func upload(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(AssetUploadRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await assets.uploadURLs(body, scope: context.scope))
    }

    @Sendable private func rereference(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(RereferenceAssetsRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await assets.rereference(body, scope: context.scope))
    }
}
