import Hummingbird
import StratusCore
import StratusModel

/// `POST /stratus/v1/admin/assets/collect` with `{"olderThanSeconds": N}`: a collection now.
struct AssetCollectionRoutes {
    let assets: AssetService

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.post("assets/collect", use: collect)
    }

    @Sendable private func collect(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: CollectAssetsRequest.self, context: context)
        return WireAnswer(try await assets.collect(olderThanSeconds: body.olderThanSeconds))
    }
}
