import StratusModel
import StratusStore
import Synchronization

/// Every subscription of a database scope of a container environment, kept in memory so that
/// matching a committed change costs no read when nobody subscribed.
///
/// Loaded from the store on first use per scope, dropped whenever this process changes one of
/// its subscriptions (subscriptions/modify, a fired `firesOnce`), and on every instance sharing
/// the store when one of them does (``InstanceRelay``).
final class SubscriptionCache: Sendable {
    struct Key: Hashable {
        var container: String
        var environment: ContainerEnvironment
        var scope: DatabaseScope
    }

    private struct State {
        var entries: [Key: [String: [StoredSubscription]]] = [:]
        /// Bumped by every invalidation: a load that raced one is not kept.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Which commits a subscription being created may fire for.
    let births = SubscriptionBirths()
    private let store: any PushStore
    private let relay: InstanceRelay

    init(store: any PushStore, relay: InstanceRelay) {
        self.store = store
        self.relay = relay
    }

    /// The subscriptions of `users` (every user's when `nil`) in a scope.
    func subscriptions(
        container: String, environment: ContainerEnvironment, scope: DatabaseScope, users: [String]?
    ) async throws(StoreError) -> [StoredSubscription] {
        let key = Key(container: container, environment: environment, scope: scope)
        let byUser: [String: [StoredSubscription]]
        let (cached, generation) = state.withLock { ($0.entries[key], $0.generation) }
        if let cached {
            byUser = cached
        } else {
            let loaded = try await store.subscriptions(container: container, environment: environment, scope: scope, users: nil)
            byUser = Dictionary(grouping: loaded, by: \.subscriber.user)
            state.withLock { state in
                if state.generation == generation { state.entries[key] = byUser }
            }
        }
        guard let users else { return byUser.values.flatMap { $0 } }
        return users.flatMap { byUser[$0] ?? [] }
    }

    /// Forgets a scope after one of its subscriptions changed.
    func invalidate(_ subscriber: SubscriberKey) {
        let key = Key(container: subscriber.container, environment: subscriber.environment, scope: subscriber.scope)
        state.withLock { state in
            state.entries[key] = nil
            state.generation += 1
        }
        relay.announce(.subscriptions)
    }

    /// Forgets every scope (another instance changed a subscription).
    func invalidateAll() {
        state.withLock { state in
            state.entries = [:]
            state.generation += 1
        }
    }
}
