import CloudKit
import Foundation
import Testing

/// `CKFetchWebAuthTokenOperation` hands back a web auth token for the signed-in account, to use
/// with the API token it was given in CloudKit Web Services requests; without a signed-in
/// account, or once the account's token was revoked, it fails `notAuthenticated`.
@Suite struct FetchWebAuthTokenOperationTests {
    @Test func theSignedInAccountGetsItsWebAuthToken() async throws {
        try await DevServer.with { server in
            let container = try server.container("alice")
            let apiToken = try #require(container.connection?.apiToken)
            let issued = try Self.webAuthToken(of: "alice", in: server)
            let token = try await fetchWebAuthToken(apiToken: apiToken, in: container)
            #expect(token == issued)
            #expect(container.connection?.webAuthToken == token)
        }
    }

    @Test func withoutASignedInAccountItFailsNotAuthenticated() async throws {
        try await DevServer.with { server in
            var connection = try StratusConnection(devCredentials: server.credentials, account: "alice")
            connection.webAuthToken = nil
            let signedOut = CKContainer(identifier: server.containerIdentifier, connection: connection)
            let refused = try await #require(throws: CKError.self) {
                try await fetchWebAuthToken(apiToken: connection.apiToken, in: signedOut)
            }
            #expect(refused.code == .notAuthenticated)
        }
    }

    @Test func aRevokedTokenIsNotHandedBack() async throws {
        try await DevServer.with { server in
            let container = try server.container("alice")
            let apiToken = try #require(container.connection?.apiToken)
            let issued = try Self.webAuthToken(of: "alice", in: server)
            #expect(try await server.stratus(["account", "revoke-token", issued]) == 0)
            let refused = try await #require(throws: CKError.self) { try await fetchWebAuthToken(apiToken: apiToken, in: container) }
            #expect(refused.code == .notAuthenticated)
        }
    }

    @available(*, deprecated, message: "exercises fetchWebAuthTokenCompletionBlock")
    @Test func theDeprecatedCompletionBlockGetsTheTokenToo() async throws {
        try await DevServer.with { server in
            let container = try server.container("alice")
            let operation = CKFetchWebAuthTokenOperation(apiToken: try #require(container.connection?.apiToken))
            let issued = try Self.webAuthToken(of: "alice", in: server)
            let token = await withCheckedContinuation { (done: CheckedContinuation<String?, Never>) in
                operation.fetchWebAuthTokenCompletionBlock = { token, _ in done.resume(returning: token) }
                container.add(operation)
            }
            #expect(token == issued)
        }
    }

    /// The web auth token the dev server gave `account`, from its credentials file.
    static func webAuthToken(of account: String, in server: DevServer) throws -> String {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: server.credentials)) as? [String: Any] ?? [:]
        let entry = (json["accounts"] as? [[String: Any]])?.first { $0["name"] as? String == account }
        return try #require(entry?["webAuthToken"] as? String)
    }
}

/// Runs a `CKFetchWebAuthTokenOperation` in `container`'s private database, as an app does.
private func fetchWebAuthToken(apiToken: String, in container: CKContainer) async throws -> String {
    let operation = CKFetchWebAuthTokenOperation(apiToken: apiToken)
    return try await withCheckedThrowingContinuation { (done: CheckedContinuation<String, any Error>) in
        operation.fetchWebAuthTokenResultBlock = { result in done.resume(with: result) }
        container.privateCloudDatabase.add(operation)
    }
}
