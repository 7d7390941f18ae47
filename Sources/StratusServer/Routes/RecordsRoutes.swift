import Hummingbird
import StratusCore
import StratusModel

/// `records/modify`, `records/lookup`, `records/query` and the older `records/changes`.
struct RecordsRoutes {
    let records: RecordService
    let changes: ChangeService
    let queries: QueryService
    let limits: ServiceLimits

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("records/modify", use: modify)
        group.post("records/lookup", use: lookup)
        group.post("records/changes", use: recordChanges)
        group.post("records/query", use: query)
    }

    @Sendable private func modify(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(ModifyRecordsRequest.self, from: request, limit: limits.requestBytes)
        let response = try await records.modify(body, scope: context.scope, logger: context.logger)
        context.facts.update { facts in
            facts.name(zones: [body.zoneID])
            facts.count(response.records)
        }
        return try JSONBody.response(response, numbersAsStrings: body.numbersAsStrings ?? false, extensions: WireExtensions(request))
    }

    @Sendable private func lookup(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(LookupRecordsRequest.self, from: request, limit: limits.requestBytes)
        let response = try await records.lookup(body, scope: context.scope)
        context.facts.update { facts in
            facts.name(zones: [body.zoneID])
            facts.count(response.records)
        }
        return try JSONBody.response(response, numbersAsStrings: body.numbersAsStrings ?? false, extensions: WireExtensions(request))
    }

    @Sendable private func query(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(QueryRecordsRequest.self, from: request, limit: limits.requestBytes)
        let response = try await queries.query(body, scope: context.scope)
        return try JSONBody.response(response, numbersAsStrings: body.numbersAsStrings ?? false, extensions: WireExtensions(request))
    }

    @Sendable private func recordChanges(_ request: Request, context: DatabaseContext) async throws -> Response {
        let body = try await JSONBody.decode(RecordChangesRequest.self, from: request, limit: limits.requestBytes)
        let response = try await changes.recordChanges(body, scope: context.scope)
        return try JSONBody.response(response, numbersAsStrings: body.numbersAsStrings ?? false, extensions: WireExtensions(request))
    }
}
