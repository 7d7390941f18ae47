import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOFoundationCompat
import StratusKit
import StratusModel

/// A server the fuzzer drives: its URL and admin token. Accounts are made through the admin API,
/// so the fuzzer runs the same against a server of its own or one given with `--server`.
public struct FuzzServer: Sendable {
    public var url: String
    public var adminToken: String
    /// Kills the server mid-work and starts it again on the same store and URL; `nil` when the
    /// fuzzer does not own its server (`--server`), and ``FuzzAction/serverCrash`` is skipped.
    public var crash: (@Sendable () async throws -> Void)?

    public init(url: String, adminToken: String, crash: (@Sendable () async throws -> Void)? = nil) {
        self.url = url
        self.adminToken = adminToken
        self.crash = crash
    }

    /// The container every fuzz run uses (created if missing).
    public static let container = "iCloud.com.stratus.fuzz"

    /// An API token and `count` fresh accounts (each with a web auth token), unique to this run.
    func provision(accounts count: Int) async throws -> [FuzzAccount] {
        _ = try await admin("containers", CreateContainerRequest(identifier: Self.container), as: CreateContainerRequest.self)
        let apiToken = try await admin(
            "api-tokens", CreateAPITokenRequest(container: Self.container, environment: .development), as: CreateAPITokenResponse.self
        ).apiToken
        let run = UUID().uuidString.prefix(8).lowercased()
        var accounts: [FuzzAccount] = []
        for index in 0..<count {
            let email = "fuzz-\(run)-\(index)@stratus.test"
            let info = try await admin("accounts", CreateAccountRequest(email: email, givenName: "User\(index)", discoverable: true), as: AccountInfo.self)
            let token = try await admin(
                "web-auth-tokens", CreateWebAuthTokenRequest(container: Self.container, userRecordName: info.userRecordName),
                as: CreateWebAuthTokenResponse.self
            ).webAuthToken
            accounts.append(FuzzAccount(
                email: email, userRecordName: info.userRecordName,
                account: SimulatedDevice.Account(name: "user\(index)", apiToken: apiToken, webAuthToken: token)
            ))
        }
        return accounts
    }

    /// Revokes an account's web auth token and mints it a new one (what a user signing in again
    /// gets); answers the new token.
    func replaceWebAuthToken(_ token: String, userRecordName: String) async throws -> String {
        _ = try await admin("web-auth-tokens/revoke", RevokeWebAuthTokenRequest(webAuthToken: token), as: RevokeWebAuthTokenResponse.self)
        return try await admin(
            "web-auth-tokens", CreateWebAuthTokenRequest(container: Self.container, userRecordName: userRecordName),
            as: CreateWebAuthTokenResponse.self
        ).webAuthToken
    }

    /// Faults the server injected so far by buggify (`nil` when it runs without).
    /// Deletes an account's zone as a purge in Settings or an encrypted-data reset would;
    /// `false` when the zone does not exist (yet, or any more).
    func resetZone(_ zoneName: String, of userRecordName: String, reason: ZoneDeletionReason) async throws -> Bool {
        let request = ZoneResetRequest(container: Self.container, environment: .development, userRecordName: userRecordName, zoneName: zoneName, reason: reason)
        let (status, bytes) = try await exchange(method: .POST, "zones/reset", body: request)
        if status == 404 { return false }
        guard (200...201).contains(status) else { throw FuzzError("admin zones/reset answered \(status): \(String(buffer: bytes))") }
        return true
    }

    /// The next `records/modify` carrying a record of `recordType` fails whole (BAD_REQUEST).
    func failNextUpload(of recordType: String) async throws {
        _ = try await admin(
            "faults",
            CreateFaultRequest(match: FaultMatch(endpoint: "records/modify", recordType: recordType), action: .error(.badRequest, retryAfter: nil), count: 1),
            as: FaultRule.self
        )
    }

    func buggifyFired() async -> Int? {
        (try? await admin(method: .GET, "faults", body: Optional<CreateFaultRequest>.none, as: FaultsResponse.self))?.buggify?.fired
    }

    private func admin<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body, as: Answer.Type) async throws -> Answer {
        try await admin(method: .POST, path, body: body, as: Answer.self)
    }

    private func admin<Body: Encodable, Answer: Decodable>(
        method: HTTPMethod, _ path: String, body: Body?, as: Answer.Type
    ) async throws -> Answer {
        let (status, bytes) = try await exchange(method: method, path, body: body)
        guard (200...201).contains(status) else { throw FuzzError("admin \(path) answered \(status): \(String(buffer: bytes))") }
        return try JSONDecoder().decode(Answer.self, from: bytes)
    }

    private func exchange<Body: Encodable>(method: HTTPMethod, _ path: String, body: Body?) async throws -> (status: UInt, body: ByteBuffer) {
        var request = HTTPClientRequest(url: "\(url)/stratus/v1/admin/\(path)")
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(adminToken)")
        if let body { request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body))) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return (response.status.code, try await response.body.collect(upTo: 1 << 20))
    }
}

/// An account of a fuzz run.
public struct FuzzAccount: Sendable {
    public var email: String
    public var userRecordName: String
    public var account: SimulatedDevice.Account
}

/// A failure of the fuzzer itself (not of a check): provisioning, a server that does not answer.
public struct FuzzError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
