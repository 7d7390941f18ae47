import Hummingbird
import StratusCore
import StratusModel

/// `POST /stratus/v1/admin/assets/collect` with `{"olderThanSeconds": N}`: a collection now.
struct AssetCollectionRoutes {
    let assets: AssetService
    let limit: Int

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.post("assets/collect", use: collect)
    }

    @Sendable private func collect(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(CollectAssetsRequest.self, from: request, limit: limit)
        return try JSONBody.response(try await assets.collect(olderThanSeconds: body.olderThanSeconds))
    }
}
