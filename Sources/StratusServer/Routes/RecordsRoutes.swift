import Hummingbird
import StratusCore
import StratusModel

/// `records/modify`, `records/lookup`, `records/query` and the older `records/changes`.
struct RecordsRoutes {
    let records: RecordService
    let changes: ChangeService
    let queries: QueryService

    func register(on group: RouterGroup<DatabaseContext>) {
        group.post("records/modify", use: modify)
        group.post("records/lookup", use: lookup)
        group.post("records/changes", use: recordChanges)
        group.post("records/query", use: query)
    }

    @Sendable private func modify(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: ModifyRecordsRequest.self, context: context)
        let response = try await records.modify(body, scope: context.scope, logger: context.logger)
        context.facts.update { facts in
            facts.name(zones: [body.zoneID])
            facts.count(response.records)
        }
        return WireAnswer(response, numbersAsStrings: body.numbersAsStrings ?? false)
    }

    @Sendable private func lookup(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: LookupRecordsRequest.self, context: context)
        let response = try await records.lookup(body, scope: context.scope)
        context.facts.update { facts in
            facts.name(zones: [body.zoneID])
            facts.count(response.records)
        }
        return WireAnswer(response, numbersAsStrings: body.numbersAsStrings ?? false)
    }

    @Sendable private func query(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: QueryRecordsRequest.self, context: context)
        let response = try await queries.query(body, scope: context.scope)
        return WireAnswer(response, numbersAsStrings: body.numbersAsStrings ?? false)
    }

    @Sendable private func recordChanges(_ request: Request, context: DatabaseContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: RecordChangesRequest.self, context: context)
        let response = try await changes.recordChanges(body, scope: context.scope)
        return WireAnswer(response, numbersAsStrings: body.numbersAsStrings ?? false)
    }
}
