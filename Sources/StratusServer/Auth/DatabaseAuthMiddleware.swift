import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOFoundationCompat
import StratusCore
import StratusModel

/// Resolves a CKWS request's path and credentials into a ``RequestScope``:
/// `{container}/{environment}/{database}` from the path, then either the `X-Apple-CloudKit-Request-*`
/// signature headers (server-to-server: no `ckAPIToken` needed) or `ckAPIToken` and
/// `ckWebAuthToken` from the query. A bad credential fails at once with `AUTHENTICATION_FAILED`;
/// whether the caller may use the database is Core's decision, made later.
struct DatabaseAuthMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext

    let identity: IdentityService
    let serverKeys: ServerKeys
    /// The largest body a signed request's hash is computed over (the request limit).

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let database = try Self.databaseRef(from: context.parameters)
        var request = request
        let caller: Caller
        var apiToken: String?
        if let keyID = request.headers[.cloudKitKeyID] {
            // The body is already read whole (BodyDeadlineMiddleware): collecting it is free.
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: context.maxUploadSize) } catch { throw JSONBody.tooLarge(context.maxUploadSize) }
            caller = try await serverKeys.authenticate(
                keyID: keyID, date: request.headers[.cloudKitDate] ?? "", signature: request.headers[.cloudKitSignature] ?? "",
                body: Data(buffer: body), path: request.head.path ?? request.uri.path, for: database
            )
        } else {
            let query = request.uri.queryParameters
            apiToken = query["ckAPIToken"].map(String.init)
            caller = try await identity.authenticate(
                apiToken: apiToken, webAuthToken: query["ckWebAuthToken"].map(String.init), origin: request.headers[.origin], for: database
            )
        }
        var context = context
        var scope = RequestScope(
            database: database, caller: caller, deviceID: request.headers[.deviceID],
            origin: "http://\(request.head.authority ?? "127.0.0.1")", apiToken: apiToken
        )
        scope.extensions = WireExtensions(request)
        context.scope = scope
        let deviceID = request.headers[.deviceID]
        context.facts.update { facts in
            facts.database = database
            facts.account = caller.userRecordName
            facts.deviceID = deviceID
        }
        return try await next(request, context)
    }

    static func databaseRef(from parameters: Parameters) throws(CoreError) -> DatabaseRef {
        guard let container = parameters.get("container"), !container.isEmpty else {
            throw CoreError.badRequest("missing container")
        }
        guard let environment = parameters.get("environment", as: ContainerEnvironment.self) else {
            throw CoreError.badRequest("environment must be development or production")
        }
        // Endpoints registered without a database segment (users/…) act on the public scope.
        guard let scope = parameters.get("database").map({ DatabaseScope(rawValue: $0) }) ?? .public else {
            throw CoreError.badRequest("database must be public, private or shared")
        }
        return DatabaseRef(container: container, environment: environment, scope: scope)
    }
}
