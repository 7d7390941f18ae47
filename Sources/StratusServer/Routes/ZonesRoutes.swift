import Hummingbird
import StratusCore
import StratusModel

/// `zones/list`, `zones/lookup`, `zones/modify`. A client asking for `zoneShares`
/// (`X-Stratus-Extensions`) gets each listed or looked-up zone's zone-wide share.
struct ZonesRoutes {
    let zones: ZoneService

    func register(on group: RouterGroup<DatabaseContext>) {
        group.get("zones/list", use: list)
        group.post("zones/list") { request, context in
            // Some clients POST `{}`; a body that is not an object is malformed.
            _ = try await request.decode(as: EmptyRequest.self, context: context)
            return try await list(request, context: context)
        }
        group.post("zones/lookup", use: lookup)
        group.post("zones/modify", use: modify)
    }

    @Sendable private func list(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        WireAnswer(try await zones.list(scope: context.scope, zoneShares: WireExtensions(request).contains(.zoneShares)))
    }

    @Sendable private func lookup(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: LookupZonesRequest.self, context: context)
        return WireAnswer(try await zones.lookup(body, scope: context.scope, zoneShares: WireExtensions(request).contains(.zoneShares)))
    }

    @Sendable private func modify(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: ModifyZonesRequest.self, context: context)
        let response = try await zones.modify(body, scope: context.scope)
        context.facts.update { facts in
            facts.name(zones: body.operations.map(\.zone.zoneID))
            facts.count(response.zones)
        }
        return WireAnswer(response)
    }
}
