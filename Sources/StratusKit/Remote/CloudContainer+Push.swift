import NIOCore
import StratusModel

/// Push without APNs: a token per device and its webcourier feed.
extension CloudContainer {
    /// tokens/create then tokens/register: a token bound to the signed-in account and this
    /// client's device, with the long-poll URL that delivers its notifications.
    public func registerForPush(apnsEnvironment: String = "development") async throws(CloudError) -> PushTokenResponse {
        let created = try await transport.post("tokens/create", PushTokenRequest(apnsEnvironment: apnsEnvironment), as: PushTokenResponse.self)
        _ = try await transport.post(
            "tokens/register", PushTokenRequest(apnsEnvironment: apnsEnvironment, apnsToken: created.apnsToken), as: EmptyRequest.self
        )
        return created
    }

    /// One long-poll of a webcourier URL: the notifications after `cursor`, waiting up to
    /// `wait` seconds (at most 25) for the first.
    public func notifications(at webcourierURL: String, after cursor: String?, wait: Int = 25) async throws(CloudError) -> NotificationFeed {
        var url = "\(webcourierURL)?timeout=\(wait)"
        if let cursor { url += "&cursor=\(cursor)" }
        return try await transport.get(url: url, as: NotificationFeed.self, timeout: .seconds(Int64(wait) + 10))
    }
}
