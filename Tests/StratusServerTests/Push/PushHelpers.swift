import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// A device's push channel in a test: its token's webcourier path and the cursor it has read to.
struct TestListener {
    let path: String
    var cursor: String?
}

extension TestServer {
    /// POSTs `request` as `account` from `device` (`X-Stratus-Device-ID`).
    func post<Body: Encodable>(
        _ operation: String, _ request: Body, database: String = "private", as account: String = "alice", device: String?
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let device { headers[HTTPField.Name("X-Stratus-Device-ID")!] = device }
        return try await client.execute(
            uri: "\(TestServer.base)/\(database)/\(operation)?\(query(account))", method: .post, headers: headers,
            body: ByteBuffer(data: try JSONEncoder().encode(request))
        )
    }

    /// Creates subscriptions as `account` and returns the per-item results.
    func subscribe(_ subscriptions: [Subscription], database: String = "private", as account: String = "alice") async throws -> [SubscriptionResult] {
        let request = ModifySubscriptionsRequest(operations: subscriptions.map { .init(.create, $0) })
        let response = try await post("subscriptions/modify", request, database: database, as: account)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(SubscriptionsResponse.self).subscriptions
    }

    /// A push token for `account`'s `device`, read to the end of its feed.
    func listener(_ account: String, device: String) async throws -> TestListener {
        let response = try await post("tokens/create", PushTokenRequest(), as: account, device: device)
        #expect(response.status == .ok, "\(response.text)")
        let created = try response.decode(PushTokenResponse.self)
        guard let range = created.webcourierURL.range(of: "/stratus/v1/push/") else { throw TestFailure("webcourierURL \(created.webcourierURL)") }
        // A Stratus device's URL asks for the feed (`?format=stratus`); the tests name the format themselves.
        let path = created.webcourierURL[range.lowerBound...].split(separator: "?", maxSplits: 1)[0]
        return TestListener(path: String(path))
    }

    /// One long-poll of at most `timeout` seconds; advances the listener's cursor.
    func poll(_ listener: inout TestListener, timeout: Int = 5) async throws -> [PushNotification] {
        var uri = "\(listener.path)?format=stratus&timeout=\(timeout)"
        if let cursor = listener.cursor { uri += "&cursor=\(cursor)" }
        let response = try await client.execute(uri: uri, method: .get, headers: [:], body: nil)
        #expect(response.status == .ok, "\(response.text)")
        let feed = try response.decode(NotificationFeed.self)
        listener.cursor = feed.cursor
        return feed.notifications
    }

    /// Saves (force-updates) a Destination record in `zone` as `account` from `device`.
    @discardableResult
    func write(_ name: String, caption: String, zone: String = "Trips", as account: String = "alice", device: String?) async throws -> [RecordResult] {
        let request = ModifyRecordsRequest(
            operations: [RecordOperation(.forceUpdate, Records.destination(name, caption: caption))], zoneID: ZoneID(zoneName: zone)
        )
        let response = try await post("records/modify", request, as: account, device: device)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(RecordsResponse.self).records
    }
}
