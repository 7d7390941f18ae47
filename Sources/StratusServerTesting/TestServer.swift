import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationCompat
import StratusConsole
import StratusCore
import StratusModel
import StratusServer
import StratusServerRun
import StratusStore
import StratusStorePostgres
import StratusStoreTesting
import Testing

/// A Stratus server — StratusServerRun's `ServerComposition`, served through its router, or with
/// `live` on a real socket (port 0) — over a real SQLite file
/// in a temp directory (or a PostgreSQL database of its own under `STRATUS_TEST_STORE=postgres`:
/// ``TestStore``), seeded like `stratus serve --dev`.
package struct TestServer {
    package let client: any TestClientProtocol
    package let credentials: DevCredentials
    /// Where the server keeps asset blobs.
    package let blobDirectory: URL
    /// The server's accounts and tokens, for tests that seed or look up directly.
    package let identity: IdentityService

    package static let base = "/database/1/\(DevSeeder.container)/development"

    package init(client: any TestClientProtocol, credentials: DevCredentials, blobDirectory: URL, identity: IdentityService) {
        self.client = client
        self.credentials = credentials
        self.blobDirectory = blobDirectory
        self.identity = identity
    }

    /// Runs `body` against a fresh server. Pass `directory` to reuse a data directory (restart tests);
    /// `requireIndexes` runs it as `stratus serve --require-indexes`, `containers` as `--container`.
    /// Requests go through the router, with the application's services running (Hummingbird's
    /// `.router` testing); `live` serves them on a real socket instead, for a test the socket
    /// matters to (timeouts, dropped connections, held long-polls, a raw client).
    package static func run<T: Sendable>(
        directory: URL? = nil,
        limits: ServiceLimits = .strict,
        previous: DevCredentials? = nil,
        containers: [String] = [],
        http: HTTPOptions = HTTPOptions(),
        buggify: BuggifySetting? = nil,
        devSignIn: Bool = false,
        consoleLocalSignIn: Bool = false,
        requireIndexes: Bool = false,
        now: (@Sendable () -> Int64)? = nil,
        logger given: Logger? = nil,
        live: Bool = false,
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        let dir = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("stratus-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(at: dir) } }
        let (store, closeStore) = try await TestStore.open(directory: dir, file: "stratus.sqlite")
        let composition = ServerComposition(
            limits: limits, buggify: buggify, signInListsAccounts: devSignIn, requireIndexes: requireIndexes, now: now, http: http
        )
        let blobDirectory = dir.appendingPathComponent("blobs", isDirectory: true)
        let services = try composition.services(store: store, blobDirectory: blobDirectory, serverURL: nil)
        let credentials = try await DevSeeder(identity: services.identity).seed(
            previous: previous, serverURL: "http://127.0.0.1", containers: containers
        )
        var logger = given ?? Logger(label: "stratus-test")
        if given == nil { logger.logLevel = .warning }
        let (app, console) = try composition.application(services, port: 0, metrics: TestMetrics.registry, logger: logger)
        if consoleLocalSignIn { console?.offerLocalSignIn(adminToken: credentials.adminToken) }
        do {
            let result = try await app.test(live ? .live : .router) { client in
                try await body(TestServer(client: client, credentials: credentials, blobDirectory: blobDirectory, identity: services.identity))
            }
            await closeStore(directory == nil)
            return result
        } catch {
            await closeStore(directory == nil)
            throw error
        }
    }

    // MARK: - Requests

    /// The query string for `account` (`nil`: API token only).
    package func query(_ account: String?) -> String {
        var query = "ckAPIToken=\(credentials.apiToken)"
        if let account, let token = credentials.account(account)?.webAuthToken { query += "&ckWebAuthToken=\(token)" }
        return query
    }

    package func userRecordName(_ account: String) -> String {
        credentials.account(account)?.userRecordName ?? ""
    }

    /// `X-Stratus-Extensions`.
    package static let extensionsHeader = HTTPField.Name(WireExtensions.headerName)!
    /// What the harness asks for on every CKWS request: the extras of errors.
    package static let errorExtensions: WireExtensions = [.nativeErrorCodes, .serverRecords]

    /// POSTs raw bytes to a CKWS operation of `database` as `account`.
    package func raw(
        _ operation: String, database: String = "private", as account: String? = "alice", body: ByteBuffer?,
        method: HTTPRequest.Method = .post, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        let uri = "\(TestServer.base)/\(database)/\(operation)?\(query(account))"
        // As StratusCloudKit does, the harness asks for what errors may add (a plain CKWS client
        // gets none of it: NativeErrorCodeTests, ErrorExtrasTests); a test's own headers may ask for more.
        var headers: HTTPFields = [.contentType: "text/plain", Self.extensionsHeader: Self.errorExtensions.headerValue]
        headers.append(contentsOf: extra)
        return try await client.execute(uri: uri, method: method, headers: headers, body: body)
    }

    /// POSTs `request` as JSON and returns the response.
    package func post<Body: Encodable>(
        _ operation: String, _ request: Body, database: String = "private", as account: String? = "alice"
    ) async throws -> TestResponse {
        try await raw(operation, database: database, as: account, body: ByteBuffer(data: try JSONEncoder().encode(request)))
    }

    /// POSTs `request` and decodes a 200 response as `Response`.
    package func call<Body: Encodable, Response: Decodable>(
        _ operation: String, _ request: Body, as account: String = "alice", expecting: Response.Type,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Response {
        let response = try await post(operation, request, as: account)
        #expect(response.status == .ok, "\(operation): \(response.text)", sourceLocation: sourceLocation)
        return try response.decode(Response.self)
    }

    // MARK: - Shorthands for the common CKWS calls

    @discardableResult
    package func createZone(_ name: String, as account: String = "alice") async throws -> Zone {
        let response = try await call(
            "zones/modify", ModifyZonesRequest(operations: [.init(.create, ZoneID(zoneName: name))]), as: account,
            expecting: ZonesResponse.self
        )
        guard case .success(let zone)? = response.zones.first else { throw TestFailure("zone \(name) not created") }
        return zone
    }

    package func modify(
        _ operations: [RecordOperation], zone: String, atomic: Bool? = nil, as account: String = "alice"
    ) async throws -> [RecordResult] {
        try await call(
            "records/modify", ModifyRecordsRequest(operations: operations, zoneID: ZoneID(zoneName: zone), atomic: atomic),
            as: account, expecting: RecordsResponse.self
        ).records
    }

    package func lookup(_ names: [String], zone: String, as account: String = "alice") async throws -> [RecordResult] {
        try await call(
            "records/lookup", LookupRecordsRequest(records: names.map { .init(recordName: $0) }, zoneID: ZoneID(zoneName: zone)),
            as: account, expecting: RecordsResponse.self
        ).records
    }

    package func zoneChanges(_ zone: String, token: String? = nil, limit: Int? = nil, as account: String = "alice") async throws -> ZoneChangesResult {
        let request = ZoneChangesRequest(zones: [.init(zoneID: ZoneID(zoneName: zone), syncToken: token, resultsLimit: limit)])
        let response = try await call("changes/zone", request, as: account, expecting: ZoneChangesResponse.self)
        guard let first = response.zones.first else { throw TestFailure("no zone in changes/zone response") }
        return first
    }

    /// Every page of a zone's changes from `token`, following `moreComing`.
    package func allZoneChanges(_ zone: String, token: String? = nil, limit: Int, as account: String = "alice") async throws -> (pages: [ZoneChangesPage], token: String) {
        var pages: [ZoneChangesPage] = []
        var token = token
        while true {
            guard case .success(let page) = try await zoneChanges(zone, token: token, limit: limit, as: account) else {
                throw TestFailure("zone changes failed")
            }
            pages.append(page)
            token = page.syncToken
            if !page.moreComing { return (pages, page.syncToken) }
        }
    }

    /// POSTs to an admin endpoint with the admin token.
    package func admin<Body: Encodable>(_ path: String, _ body: Body, token: String? = nil) async throws -> TestResponse {
        try await client.execute(
            uri: "/stratus/v1/admin/\(path)", method: .post,
            headers: [.authorization: "Bearer \(token ?? credentials.adminToken)"],
            body: ByteBuffer(data: try JSONEncoder().encode(body))
        )
    }

    /// An admin request without a body (GET, DELETE).
    package func admin(_ path: String, method: HTTPRequest.Method) async throws -> TestResponse {
        try await client.execute(
            uri: "/stratus/v1/admin/\(path)", method: method, headers: [.authorization: "Bearer \(credentials.adminToken)"], body: nil
        )
    }
}

extension TestResponse {
    package var text: String { String(buffer: body) }

    package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: body)
    }

    /// The CKWS error body of a failed request.
    package var errorBody: ErrorBody? { try? decode(ErrorBody.self) }
}

package struct TestFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Builders for test records.
package enum Records {
    package static func destination(_ name: String, caption: String, extra: [String: Field] = [:]) -> Record {
        Record(recordName: name, recordType: "Destination", fields: ["caption": .string(caption)].merging(extra) { _, new in new })
    }

    package static func create(_ name: String, caption: String = "caption") -> RecordOperation {
        RecordOperation(.create, destination(name, caption: caption))
    }
}
