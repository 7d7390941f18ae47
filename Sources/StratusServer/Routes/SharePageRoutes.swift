import Hummingbird
import StratusCore
import StratusModel

/// `GET /share/{shortGUID}`: what a share URL opens — an HTML page with the share's title, its
/// owner and how to accept it, or the same as JSON (``SharePage``) for `Accept: application/json`.
struct SharePageRoutes {
    let shares: ShareService
    let pages: Pages

    func register(on router: Router<StratusRequestContext>) {
        router.get("share/:shortGUID", use: show)
    }

    @Sendable private func show(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let page = try await shares.page(shortGUID: context.parameters.get("shortGUID") ?? "")
        if request.headers[.accept]?.contains("application/json") == true { return try JSONBody.response(page) }
        return pages.response("share", [
            "title": page.title ?? "", "ownerName": page.ownerName, "containerIdentifier": page.containerIdentifier,
            "environment": page.environment.rawValue, "invitationOnly": page.publicPermission == .none, "accept": page.accept,
            "shortGUID": page.shortGUID,
        ])
    }
}
