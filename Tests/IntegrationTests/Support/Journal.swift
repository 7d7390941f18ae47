import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import StratusCloudKit
import StratusCore
import StratusKit
import StratusModel
import StratusServerTesting
import Synchronization
import Testing

/// The travel journal against a real Stratus server: StratusServerTesting's `TestServer` on a
/// real socket, seeded like `stratus serve --dev` (alice, bob, carol). Devices keep their store
/// files (and a test its photos) in a temp directory of the journal's own.
struct Journal {
    let serverURL: String
    let credentials: DevCredentials
    let directory: URL

    static let container = DevSeeder.container

    static func run(_ body: @Sendable (Journal) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.run(live: true) { server in
            let port = try #require(server.client.port)
            try await body(Journal(serverURL: "http://127.0.0.1:\(port)", credentials: server.credentials, directory: directory))
        }
    }

    func account(_ name: String) -> SimulatedDevice.Account {
        let seeded = credentials.account(name)
        return SimulatedDevice.Account(name: name, apiToken: credentials.apiToken, webAuthToken: seeded?.webAuthToken)
    }

    func userRecordName(_ name: String) -> String { credentials.account(name)?.userRecordName ?? "" }

    /// A device with its own store file, signed in as `account`.
    func device(
        _ name: String, signedInAs account: String, style: SimulatedDevice.MirroringStyle = .syncEngine, resultsLimit: Int? = nil
    ) async throws -> SimulatedDevice {
        let device = try SimulatedDevice(
            name: name, serverURL: serverURL, container: Journal.container, storePath: storePath(name), style: style
        )
        await device.setResultsLimit(resultsLimit)
        try await device.signIn(self.account(account))
        return device
    }

    func storePath(_ device: String) -> String { directory.appendingPathComponent("\(device).sqlite").path }

    /// `account`'s container, as an app signed in as them makes it.
    func container(as account: String) throws -> CKContainer {
        try container(of: self.account(account))
    }

    func container(of account: SimulatedDevice.Account) throws -> CKContainer {
        try account.container(Journal.container, serverURL: serverURL)
    }

    /// A destination's fields, as the seeds' travel journal has them.
    static func destination(_ caption: String, details: String = "", createdAt: Int64 = 1_767_225_600_000) -> [String: Field] {
        [
            "caption": .string(caption), "details": .string(details),
            "image": .bytes(Data(caption.utf8)), "createdAt": .timestamp(milliseconds: createdAt),
        ]
    }

    /// Asks the server for an admin compaction of a zone (its older tokens expire).
    func compact(zone: String, owner: String) async throws {
        try await admin(
            "zones/compact",
            CompactZoneRequest(container: Journal.container, environment: .development, ownerRecordName: userRecordName(owner), zoneName: zone)
        )
    }

    /// POSTs to the admin API and expects it to succeed.
    func admin<Body: Encodable>(_ path: String, _ body: Body, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var request = HTTPClientRequest(url: "\(serverURL)/stratus/v1/admin/\(path)")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(credentials.adminToken)")
        request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(body)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        #expect((200...201).contains(response.status.code), "\(path)", sourceLocation: sourceLocation)
    }

    /// Deletes `account`'s zone on the server as a purge (Settings) or an encrypted-data reset would.
    func resetZone(of account: String, _ zoneName: String, reason: ZoneDeletionReason) async throws {
        try await admin("zones/reset", ZoneResetRequest(
            container: Journal.container, environment: .development, userRecordName: userRecordName(account), zoneName: zoneName, reason: reason
        ))
    }

    /// A new web auth token for `account` (the admin API), as a sign-in would give it.
    func mintWebAuthToken(for account: String) async throws -> String {
        var request = HTTPClientRequest(url: "\(serverURL)/stratus/v1/admin/web-auth-tokens")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(credentials.adminToken)")
        let email = credentials.account(account)?.email ?? ""
        request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(CreateWebAuthTokenRequest(container: Journal.container, email: email))))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(CreateWebAuthTokenResponse.self, from: Data(buffer: body)).webAuthToken
    }

    /// The names of the records changed in `account`'s private `zone`, in the order the server's
    /// change feed gives them (`CKFetchRecordZoneChangesOperation`'s per-record block).
    func changeOrder(of account: String, in zone: CKRecordZone.ID) async throws -> [String] {
        let database = try container(as: account).privateCloudDatabase
        let changed = Mutex<[String]>([])
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let fetch = CKFetchRecordZoneChangesOperation(recordZoneIDs: [zone], configurationsByRecordZoneID: nil)
            fetch.recordWasChangedBlock = { id, _ in changed.withLock { $0.append(id.recordName) } }
            fetch.fetchRecordZoneChangesResultBlock = { done.resume(with: $0) }
            database.add(fetch)
        }
        return changed.withLock { $0 }
    }

    // MARK: - What the server says a device may see

    typealias Snapshot = [String: [String: FieldValue]]

    /// Every live record `account` may see in a scope, keyed `owner/zone/name`, read afresh from the server.
    func serverSnapshot(as account: String, scope: DatabaseScope) async throws -> Snapshot {
        try await MirrorSnapshot.server(container(as: account), scope: scope).records
    }

    /// What a device's store holds in a scope, keyed like ``serverSnapshot(as:scope:)``.
    static func localSnapshot(_ device: SimulatedDevice, scope: DatabaseScope) async throws -> Snapshot {
        try MirrorSnapshot.local(await device.store, scope: scope).records
    }

    /// Syncs each device, then checks that its store equals what the server lets its account see.
    func assertConsistent(_ devices: [(SimulatedDevice, String)], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for (device, account) in devices {
            try await device.sync()
            for scope in [DatabaseScope.private, .shared] {
                let local = try await Journal.localSnapshot(device, scope: scope)
                let server = try await serverSnapshot(as: account, scope: scope)
                let differing = Set(local.keys).union(server.keys).filter { local[$0] != server[$0] }.sorted()
                #expect(
                    differing.isEmpty, "\(device.name) (\(account)) \(scope.rawValue) differs from the server at \(differing.prefix(5))",
                    sourceLocation: sourceLocation
                )
            }
        }
    }
}
