import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

@Suite("users endpoints over HTTP")
struct UsersTests {
    /// Sends a users request under each path form Apple serves: `public/`, and none.
    private func forms(_ operation: String) -> [String] {
        ["\(TestServer.base)/public/\(operation)", "\(TestServer.base)/\(operation)"]
    }

    private func send(_ server: TestServer, _ uri: String, as account: String?, method: HTTPRequest.Method = .get, body: (any Encodable)? = nil) async throws -> TestResponse {
        let data = try body.map { try JSONEncoder().encode($0) }
        return try await server.client.execute(
            uri: "\(uri)?\(server.query(account))", method: method, headers: [:], body: data.map { ByteBuffer(data: $0) }
        )
    }

    @Test("under private and shared, every users endpoint is refused as Apple refuses it (400, not applicable in the database type)")
    func onlyPublic() async throws {
        try await TestServer.run { server in
            let discover = DiscoverUsersRequest(lookupInfos: [LookupInfo(emailAddress: "bob@example.com")])
            let lookup = LookupUsersRequest(users: [.init(emailAddress: "bob@example.com")])
            for database in ["private", "shared"] {
                let base = "\(TestServer.base)/\(database)"
                let answers = [
                    try await send(server, "\(base)/users/caller", as: "alice"),
                    try await send(server, "\(base)/users/current", as: "alice"),
                    try await send(server, "\(base)/users/discover", as: "alice"),
                    try await send(server, "\(base)/users/discover", as: "alice", method: .post, body: discover),
                    try await send(server, "\(base)/users/lookup/email", as: "alice", method: .post, body: lookup),
                ]
                for answer in answers {
                    #expect(answer.status == .badRequest && answer.errorBody?.serverErrorCode == .badRequest, "\(database): \(answer.text)")
                    #expect(answer.errorBody?.reason.contains("not applicable in the database type") == true, "\(answer.text)")
                }
            }
        }
    }

    @Test("users/caller and users/current answer under public and with no database; without a user they answer 421")
    func caller() async throws {
        try await TestServer.run { server in
            for uri in forms("users/caller") {
                let response = try await send(server, uri, as: "alice")
                #expect(response.status == .ok, "\(uri): \(response.text)")
                let identity = try response.decode(CallerIdentityResponse.self)
                #expect(identity.userRecordName == server.userRecordName("alice"))
                #expect(identity.nameComponents?.givenName == "Alice")
                #expect(identity.lookupInfo?.emailAddress == "alice@example.com")
                #expect(identity.users.first?.userRecordName == identity.userRecordName)

                let anonymous = try await send(server, uri, as: nil)
                #expect(anonymous.status.code == 421, "\(uri)")
                #expect(anonymous.errorBody?.redirectURL != nil)
            }
            let current = try await send(server, "\(TestServer.base)/public/users/current", as: "bob").decode(UserInfo.self)
            #expect(current == UserInfo(userRecordName: server.userRecordName("bob"), firstName: "Bob", lastName: "Example"))
        }
    }

    @Test("discover and lookup find discoverable users only; an opted-out user shows as its lookupInfo alone")
    func discoverability() async throws {
        try await TestServer.run { server in
            let optOut = try await server.admin(
                "accounts/update", UpdateAccountRequest(userRecordName: server.userRecordName("carol"), discoverable: false)
            )
            #expect(try optOut.decode(AccountInfo.self).discoverable == false)

            let request = DiscoverUsersRequest(lookupInfos: [
                LookupInfo(emailAddress: "bob@example.com"), LookupInfo(emailAddress: "carol@example.com"),
                LookupInfo(userRecordName: server.userRecordName("bob")), LookupInfo(emailAddress: "nobody@example.com"),
            ])
            for uri in forms("users/discover") {
                let users = try await send(server, uri, as: "alice", method: .post, body: request).decode(UserIdentitiesResponse.self).users
                #expect(users.count == 4)
                #expect(users[0].userRecordName == server.userRecordName("bob") && users[0].nameComponents?.givenName == "Bob")
                #expect(users[1] == UserIdentity(lookupInfo: LookupInfo(emailAddress: "carol@example.com")))
                #expect(users[2].userRecordName == server.userRecordName("bob"))
                #expect(users[2].lookupInfo == LookupInfo(userRecordName: server.userRecordName("bob")), "found by name: no email revealed")
                #expect(users[3].userRecordName == nil)
            }
            let all = try await send(server, "\(TestServer.base)/public/users/discover", as: "alice").decode(UserIdentitiesResponse.self)
            // The other discoverable accounts, by user record name only: no email is revealed.
            #expect(all.users.compactMap(\.userRecordName) == [server.userRecordName("bob")])
            #expect(all.users.allSatisfy { $0.lookupInfo?.emailAddress == nil })

            let byEmail = try await send(
                server, "\(TestServer.base)/public/users/lookup/email", as: "alice", method: .post,
                body: LookupUsersRequest(users: [.init(emailAddress: "bob@example.com"), .init(emailAddress: "carol@example.com")])
            ).decode(UsersResponse.self)
            #expect(byEmail.users == [UserInfo(userRecordName: server.userRecordName("bob"), firstName: "Bob", lastName: "Example", emailAddress: "bob@example.com")])

            let byID = try await send(
                server, "\(TestServer.base)/public/users/lookup/id", as: "alice", method: .post,
                body: LookupUsersRequest(users: [.init(userRecordName: server.userRecordName("bob")), .init(userRecordName: server.userRecordName("carol"))])
            ).decode(UsersResponse.self)
            #expect(byID.users == [UserInfo(userRecordName: server.userRecordName("bob"), firstName: "Bob", lastName: "Example")])

            // Carol still sees herself, without her names in the legacy users/current.
            let carol = try await send(server, "\(TestServer.base)/public/users/current", as: "carol").decode(UserInfo.self)
            #expect(carol == UserInfo(userRecordName: server.userRecordName("carol")))
        }
    }
}
