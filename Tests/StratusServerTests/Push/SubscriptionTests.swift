import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// subscriptions/list, lookup and modify: ownership, echo, per-item errors.
@Suite struct SubscriptionTests {
    @Test func createListLookupDeleteAndEcho() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let info = NotificationInfo(alertBody: "Trips changed", shouldSendContentAvailable: true)
            let results = try await server.subscribe([
                Subscription(subscriptionID: "db", kind: .database, notificationInfo: info),
                Subscription(subscriptionID: "zone", kind: .zone, zoneID: ZoneID(zoneName: "Trips")),
                Subscription(
                    subscriptionID: "query", kind: .query, query: Query(recordType: "Destination"), firesOn: [.create, .delete], firesOnce: true
                ),
            ])
            #expect(results.compactMap(\.error).isEmpty, "\(results)")
            #expect(results.first?.value?.notificationInfo == info)

            let list = try await server.client.execute(
                uri: "\(TestServer.base)/private/subscriptions/list?\(server.query("alice"))", method: .get, headers: [:], body: nil
            ).decode(SubscriptionsResponse.self)
            #expect(list.subscriptions.compactMap(\.value?.subscriptionID) == ["db", "query", "zone"])
            #expect(list.subscriptions.first?.value?.notificationInfo?.alertBody == "Trips changed")
            let bobs = try await server.client.execute(
                uri: "\(TestServer.base)/private/subscriptions/list?\(server.query("bob"))", method: .get, headers: [:], body: nil
            ).decode(SubscriptionsResponse.self)
            #expect(bobs.subscriptions.isEmpty)

            let lookup = try await server.post("subscriptions/lookup", LookupSubscriptionsRequest(subscriptionIDs: ["zone", "nope"]))
                .decode(SubscriptionsResponse.self)
            #expect(lookup.subscriptions.first?.value?.kind == .zone)
            #expect(lookup.subscriptions.last?.error?.serverErrorCode == .notFound)

            let again = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            #expect(again.first?.error?.serverErrorCode == .exists)
            let delete = ModifySubscriptionsRequest(operations: [
                .init(.delete, Subscription(subscriptionID: "db", kind: .database)),
                .init(.update, Subscription(subscriptionID: "gone", kind: .database)),
            ])
            let deleted = try await server.post("subscriptions/modify", delete).decode(SubscriptionsResponse.self)
            #expect(deleted.subscriptions.first?.value?.subscriptionID == "db")
            #expect(deleted.subscriptions.last?.error?.serverErrorCode == .notFound)
        }
    }

    @Test func invalidSubscriptionsArePerItemErrors() async throws {
        try await TestServer.run { server in
            let body = """
                {"operations": [
                  {"operationType": "create", "subscription": {"subscriptionID": "weather", "subscriptionType": "weather"}},
                  {"operationType": "create", "subscription": {"subscriptionID": "no-zone", "subscriptionType": "zone", "zoneID": {"zoneName": "Nowhere"}}},
                  {"operationType": "create", "subscription": {"subscriptionID": "no-firesOn", "subscriptionType": "query", "query": {"recordType": "Destination"}}},
                  {"operationType": "create", "subscription": {"subscriptionID": "ok", "subscriptionType": "database"}}
                ]}
                """
            let response = try await server.raw("subscriptions/modify", body: .init(string: body))
            #expect(response.status == .ok)
            let results = try response.decode(SubscriptionsResponse.self).subscriptions
            #expect(results.map { $0.error?.serverErrorCode } == [.badRequest, .zoneNotFound, .badRequest, nil])
            #expect(results.first?.error?.reason.contains("weather") == true)
            #expect(results.first?.error?.uuid?.count == 32)

            // Where CloudKit has no such subscription: database in public, zone and query in shared.
            let publicDatabase = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)], database: "public")
            #expect(publicDatabase.first?.error?.serverErrorCode == .badRequest)
            let shared = try await server.subscribe(
                [Subscription(subscriptionID: "z", kind: .zone, zoneWide: true), Subscription(subscriptionID: "d", kind: .database)],
                database: "shared"
            )
            #expect(shared.map { $0.error?.serverErrorCode } == [.badRequest, nil])

            // Without a signed-in user: 421, as every private request.
            let anonymous = try await server.post(
                "subscriptions/modify", ModifySubscriptionsRequest(operations: [.init(.create, Subscription(subscriptionID: "x", kind: .database))]),
                as: nil
            )
            #expect(anonymous.status.code == 421)
            // Over the operation limit: refused whole.
            let many = ModifySubscriptionsRequest(operations: (0...200).map { .init(.create, Subscription(subscriptionID: "s\($0)", kind: .database)) })
            #expect(try await server.post("subscriptions/modify", many).status == .badRequest)
        }
    }

    @Test func productionQuerySubscriptionNeedsAKnownRecordType() async throws {
        try await TestServer.run { server in
            let token = try await server.admin(
                "api-tokens", CreateAPITokenRequest(container: server.credentials.container, environment: .production)
            ).decode(CreateAPITokenResponse.self).apiToken
            let web = server.credentials.account("alice")?.webAuthToken ?? ""
            let request = ModifySubscriptionsRequest(operations: [.init(.create, Subscription(
                subscriptionID: "q", kind: .query, query: Query(recordType: "NeverDeployed"), firesOn: [.create]
            ))])
            let response = try await server.client.execute(
                uri: "/database/1/\(server.credentials.container)/production/public/subscriptions/modify?ckAPIToken=\(token)&ckWebAuthToken=\(web)",
                method: .post, headers: [:], body: .init(data: try JSONEncoder().encode(request))
            )
            let result = try response.decode(SubscriptionsResponse.self).subscriptions.first
            #expect(result?.error?.serverErrorCode == .badRequest, "\(response.text)")
            #expect(result?.error?.reason.contains("production schema") == true)
        }
    }
}
