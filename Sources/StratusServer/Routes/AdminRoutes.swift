import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore
import StratusModel

/// Provisioning and operator actions under `/stratus/v1/admin/` (admin token required):
/// containers, API tokens, accounts, web auth tokens, zone and database compaction, the schema and its indexes,
/// and the activity feed (commits and fired faults, newest first); the schema as the CloudKit
/// Schema Language (export, import) and the members of the roles it makes.
struct AdminRoutes {
    let services: StratusServices

    private var limit: Int { services.configuration.limits.requestBytes }

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.get("containers", use: listContainers)
        group.post("containers", use: createContainer)
        group.get("accounts", use: listAccounts)
        group.get("activity", use: activity)
        group.post("api-tokens", use: createAPIToken)
        group.post("api-tokens/update", use: updateAPIToken)
        group.post("accounts", use: createAccount)
        group.post("accounts/update", use: updateAccount)
        group.post("web-auth-tokens", use: createWebAuthToken)
        group.post("zones/compact", use: compactZone)
        group.post("databases/compact", use: compactDatabase)
        group.post("schema/show", use: showSchema)
        group.post("schema/indexes", use: changeIndex)
        group.post("schema/deploy", use: deploySchema)
        group.get("schema/export", use: exportSchema)
        group.post("schema/import", use: importSchema)
        group.get("roles/members", use: roleMembers)
        group.post("roles/members", use: changeRoleMember)
    }

    @Sendable private func listContainers(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        WireAnswer(ContainersResponse(containers: try await services.identity.containers(limit: Self.listLimit)))
    }

    @Sendable private func listAccounts(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        WireAnswer(AccountsResponse(accounts: try await services.identity.accounts(limit: Self.listLimit)))
    }

    /// At most this many containers or accounts in a listing.
    static let listLimit = 1_000

    @Sendable private func activity(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let query = request.uri.queryParameters
        let after = try Self.integer(query.get("after"), name: "after", range: 0...Int64.max) ?? 0
        let limit = try Self.integer(query.get("limit"), name: "limit", range: 1...500) ?? 100
        let environment = try query.get("environment").map { name in
            guard let environment = ContainerEnvironment(rawValue: name) else { throw CoreError.badRequest("environment must be development or production") }
            return environment
        }
        let filter = ActivityLog.Filter(
            container: query.get("container"), environment: environment, userRecordName: query.get("userRecordName"), zoneName: query.get("zoneName"),
            after: after, limit: Int(limit)
        )
        return WireAnswer(services.activity.entries(filter))
    }

    private static func integer(_ text: String?, name: String, range: ClosedRange<Int64>) throws -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw CoreError.badRequest("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    @Sendable private func createContainer(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: CreateContainerRequest.self, context: context)
        try await services.identity.createContainer(body.identifier)
        return WireAnswer(body)
    }

    @Sendable private func createAPIToken(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: CreateAPITokenRequest.self, context: context)
        let settings = APITokenSettings(allowedOrigins: body.allowedOrigins ?? [], signInCallbackURL: body.signInCallbackURL)
        let token = try await services.identity.createAPIToken(container: body.container, environment: body.environment, settings: settings)
        return WireAnswer(CreateAPITokenResponse(apiToken: token))
    }

    @Sendable private func updateAPIToken(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: UpdateAPITokenRequest.self, context: context)
        return WireAnswer(try await services.identity.updateAPIToken(body))
    }

    @Sendable private func createAccount(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: CreateAccountRequest.self, context: context)
        try SignInService.checkPassword(body.password)
        let account = try await services.identity.createAccount(
            email: body.email, givenName: body.givenName, familyName: body.familyName, discoverable: body.discoverable ?? false
        )
        if let password = body.password { try await services.signIn.setPassword(password, userRecordName: account.userRecordName) }
        return WireAnswer(account)
    }

    @Sendable private func updateAccount(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: UpdateAccountRequest.self, context: context)
        try SignInService.checkPassword(body.password)
        let account = try await services.identity.updateAccount(body)
        if let password = body.password { try await services.signIn.setPassword(password, userRecordName: account.userRecordName) }
        return WireAnswer(account)
    }

    @Sendable private func createWebAuthToken(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: CreateWebAuthTokenRequest.self, context: context)
        guard let account = try await services.identity.account(userRecordName: body.userRecordName, email: body.email) else {
            throw CoreError(.notFound, "no such account")
        }
        if let seconds = body.expiresInSeconds, seconds < 1 { throw CoreError.badRequest("expiresInSeconds must be at least 1") }
        let expiresAt = body.expiresInSeconds.map { services.configuration.now() + Int64($0) * 1000 }
        let token = try await services.identity.createWebAuthToken(
            userRecordName: account.userRecordName, container: body.container, expiresAt: expiresAt
        )
        return WireAnswer(CreateWebAuthTokenResponse(webAuthToken: token, userRecordName: account.userRecordName))
    }

    @Sendable private func showSchema(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: SchemaRequest.self, context: context)
        return WireAnswer(try await services.schema.describe(container: body.container, environment: body.environment ?? .development))
    }

    @Sendable private func changeIndex(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: IndexChangeRequest.self, context: context)
        return WireAnswer(try await services.schema.changeIndex(body))
    }

    @Sendable private func deploySchema(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: SchemaRequest.self, context: context)
        return WireAnswer(try await services.schema.deploy(container: body.container))
    }

    @Sendable private func compactDatabase(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: CompactDatabaseRequest.self, context: context)
        return WireAnswer(try await services.admin.compactDatabase(body))
    }

    @Sendable private func compactZone(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: CompactZoneRequest.self, context: context)
        let database = DatabaseRef(container: body.container, environment: body.environment, scope: body.database ?? .private)
        let zone = try await services.admin.compact(zoneName: body.zoneName, ownerRecordName: body.ownerRecordName, database: database)
        return WireAnswer(CompactZoneResponse(zone: zone))
    }
}

// MARK: - The CloudKit Schema Language

/// The schema as `xcrun cktool` moves it to and from Apple's CloudKit: a container environment's
/// `.ckdb` file, its import into development (`stratus schema export|import`), and the members of
/// the roles it makes (`stratus schema add-member|remove-member|members`).
extension AdminRoutes {
    /// `GET schema/export?container=C&environment=E`: the schema file, as `text/plain`.
    @Sendable private func exportSchema(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let container = try Self.container(query.get("container"))
        let environment = try Self.environment(query.get("environment"))
        let text = try await services.schema.export(container: container, environment: environment)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// `POST schema/import`: the file replaces development's schema; answers development's schema.
    @Sendable private func importSchema(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: SchemaImportRequest.self, context: context)
        let container = try Self.container(body.container)
        return WireAnswer(try await services.schema.importSchema(body.schema, container: container))
    }

    /// `GET roles/members?container=C`.
    @Sendable private func roleMembers(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let container = try Self.container(request.uri.queryParameters.get("container"))
        return WireAnswer(try await services.schema.roleMembers(container: container))
    }

    /// `POST roles/members`: add or remove one membership; answers the container's memberships.
    @Sendable private func changeRoleMember(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: RoleMembershipRequest.self, context: context)
        _ = try Self.container(body.container)
        return WireAnswer(try await services.schema.changeRoleMember(body))
    }

    private static func container(_ given: String?) throws(CoreError) -> String {
        guard let given, !given.isEmpty else { throw CoreError.badRequest("give the container") }
        return given
    }

    private static func environment(_ name: String?) throws(CoreError) -> ContainerEnvironment {
        guard let name else { return .development }
        guard let environment = ContainerEnvironment(rawValue: name) else {
            throw CoreError.badRequest("environment must be development or production")
        }
        return environment
    }
}
