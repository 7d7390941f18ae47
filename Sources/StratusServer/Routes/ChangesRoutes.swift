import Hummingbird
import StratusCore
import StratusModel

/// `changes/database`, `changes/zone`, and the older `zones/changes` (with `metaSyncToken`).
struct ChangesRoutes {
    let changes: ChangeService
    let limits: ServiceLimits

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("changes/database", use: databaseChanges)
        group.post("zones/changes", use: legacyZoneChanges)
        group.post("changes/zone", use: zoneChanges)
    }

    @Sendable private func databaseChanges(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(DatabaseChangesRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await changes.databaseChanges(body, scope: context.scope))
    }

    @Sendable private func legacyZoneChanges(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(DatabaseChangesRequest.self, from: request, limit: limits.requestBytes)
        var response = try await changes.databaseChanges(body, scope: context.scope)
        response.metaSyncToken = response.syncToken
        return try JSONBody.response(response)
    }

    @Sendable private func zoneChanges(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(ZoneChangesRequest.self, from: request, limit: limits.requestBytes)
        let response = try await changes.zoneChanges(body, scope: context.scope)
        return try JSONBody.response(response, numbersAsStrings: body.numbersAsStrings ?? false, extensions: WireExtensions(request))
    }
}
