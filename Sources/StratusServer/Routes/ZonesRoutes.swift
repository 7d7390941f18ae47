import Hummingbird
import StratusCore
import StratusModel

/// `zones/list`, `zones/lookup`, `zones/modify`.
struct ZonesRoutes {
    let zones: ZoneService
    let limits: ServiceLimits

    func register(on group: RouterGroup<DatabaseContext>) {
        group.get("zones/list", use: list)
        group.post("zones/list") { request, context in
            // Some clients POST `{}`; a body that is not an object is malformed.
            _ = try await JSONBody.decode(EmptyRequest.self, from: request, limit: limits.requestBytes)
            return try await list(request, context: context)
        }
        group.post("zones/lookup", use: lookup)
        group.post("zones/modify", use: modify)
    }

    @Sendable private func list(_ request: Request, context: DatabaseContext) async throws -> Response {
        try JSONBody.response(try await zones.list(scope: context.scope))
    }

    @Sendable private func lookup(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(LookupZonesRequest.self, from: request, limit: limits.requestBytes)
        return try JSONBody.response(try await zones.lookup(body, scope: context.scope))
    }

    @Sendable private func modify(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(ModifyZonesRequest.self, from: request, limit: limits.requestBytes)
        let response = try await zones.modify(body, scope: context.scope)
        context.facts.update { facts in
            facts.name(zones: body.operations.map(\.zone.zoneID))
            facts.count(response.zones)
        }
        return try JSONBody.response(response)
    }
}
