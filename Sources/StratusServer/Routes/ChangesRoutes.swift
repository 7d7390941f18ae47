import Hummingbird
import StratusCore
import StratusModel

/// `changes/database`, `changes/zone`, and the older `zones/changes` (with `metaSyncToken`).
struct ChangesRoutes {
    let changes: ChangeService

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("changes/database", use: databaseChanges)
        group.post("zones/changes", use: legacyZoneChanges)
        group.post("changes/zone", use: zoneChanges)
    }

    @Sendable private func databaseChanges(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: DatabaseChangesRequest.self, context: context)
        return WireAnswer(try await changes.databaseChanges(body, scope: context.scope))
    }

    @Sendable private func legacyZoneChanges(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: DatabaseChangesRequest.self, context: context)
        var response = try await changes.databaseChanges(body, scope: context.scope)
        response.metaSyncToken = response.syncToken
        return WireAnswer(response)
    }

    @Sendable private func zoneChanges(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: ZoneChangesRequest.self, context: context)
        let response = try await changes.zoneChanges(body, scope: context.scope)
        return WireAnswer(response, numbersAsStrings: body.numbersAsStrings ?? false)
    }
}
