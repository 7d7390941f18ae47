import Hummingbird
import StratusCore
import StratusModel

/// Test fixtures under `/stratus/v1/admin/` (admin token required): `POST reset` wipes a
/// container environment's data (or one account's), `GET export?container=&environment=`
/// answers its records as JSON, `POST import` writes such a document back (up to the request
/// size limit: larger fixtures go in several files).
struct FixtureRoutes {
    let fixtures: DataFixtures

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.post("reset", use: reset)
        group.get("export", use: export)
        group.post("import", use: importData)
    }

    @Sendable private func reset(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: DataResetRequest.self, context: context)
        return WireAnswer(try await fixtures.reset(body))
    }

    @Sendable private func export(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let query = request.uri.queryParameters
        guard let container = query.get("container") else { throw CoreError.badRequest("export needs ?container=") }
        let name = query.get("environment") ?? ContainerEnvironment.development.rawValue
        guard let environment = ContainerEnvironment(rawValue: name) else { throw CoreError.badRequest("environment must be development or production") }
        return WireAnswer(try await fixtures.export(container: container, environment: environment))
    }

    @Sendable private func importData(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: DataExport.self, context: context)
        return WireAnswer(try await fixtures.importData(body, logger: context.logger))
    }
}
