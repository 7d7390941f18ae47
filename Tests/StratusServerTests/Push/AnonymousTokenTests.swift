import Foundation
import HTTPTypes
import HummingbirdTesting
import StratusModel
import StratusServerTesting
import Testing

/// A push token made with the API token alone (no user): allowed, but with nothing to deliver
/// its poll is held to its timeout like any other — never answered at once, which would make a
/// polling client spin — until tokens/register binds it to a user.
@Suite struct AnonymousTokenTests {
    @Test func aTokenWithoutAUserHasItsPollHeldUntilItIsRegistered() async throws {
        try await TestServer.run { server in
            let created = try await server.post("tokens/create", PushTokenRequest(), database: "public", as: nil)
            #expect(created.status == .ok, "\(created.text)")
            let token = try created.decode(PushTokenResponse.self)
            guard let range = token.webcourierURL.range(of: "/stratus/v1/push/") else { throw TestFailure("webcourierURL \(token.webcourierURL)") }
            var listener = TestListener(path: String(token.webcourierURL[range.lowerBound...]))

            let clock = ContinuousClock()
            let started = clock.now
            #expect(try await server.poll(&listener, timeout: 2).isEmpty)
            let held = clock.now - started
            #expect(held >= .milliseconds(1_800), "an anonymous token's poll answered after \(held)")
            // Asked not to wait, it answers without waiting: well before a held poll would (a
            // bound relative to the held one, so a loaded machine's slowness counts on both sides).
            let quick = clock.now
            #expect(try await server.poll(&listener, timeout: 0).isEmpty)
            let answered = clock.now - quick
            #expect(answered < held - .milliseconds(700), "a poll with timeout 0 answered after \(answered), a held one after \(held)")

            // Registered by a user, the same token delivers that user's notifications.
            try await server.createZone("Trips")
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            let registered = try await server.post("tokens/register", PushTokenRequest(apnsToken: token.apnsToken), device: "web")
            #expect(registered.status == .ok, "\(registered.text)")
            try await server.write("porto", caption: "Porto", device: "iphone")
            let delivered = try await server.poll(&listener)
            #expect(delivered.contains { $0.subscriptionID == "db" }, "\(delivered)")
        }
    }
}
