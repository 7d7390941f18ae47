import Hummingbird
import StratusCore
import StratusModel

/// `assets/upload` (upload URLs) and `assets/rereference` (fresh receipts for stored assets).
struct AssetsRoutes {
    let assets: AssetService

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("assets/upload", use: upload)
        group.post("assets/rereference", use: rereference)
    }

    @Sendable private func upload(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: AssetUploadRequest.self, context: context)
        return WireAnswer(try await assets.uploadURLs(body, scope: context.scope))
    }

    @Sendable private func rereference(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: RereferenceAssetsRequest.self, context: context)
        return WireAnswer(try await assets.rereference(body, scope: context.scope))
    }
}
