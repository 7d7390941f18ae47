import StratusModel
import StratusStore
import Synchronization

/// Which commits a subscription being created may fire for: only those published after its save
/// began. Delivery plans a commit after it is acknowledged, off the write path, so without this a
/// subscription saved meanwhile would be told of a change made before it existed — CloudKit
/// notifies a subscription of the changes after it, never before.
///
/// Commits are numbered as they are published; a create marks the number it saw. Marks live in
/// memory only until every commit they could hold back was delivered (what a restart loses
/// nothing of: queued commits are delivered before a graceful stop).
final class SubscriptionBirths: Sendable {
    /// One subscription, across users, databases and containers.
    struct Key: Hashable {
        var subscriber: SubscriberKey
        var subscriptionID: String

        init(subscriber: SubscriberKey, subscriptionID: String) {
            self.subscriber = subscriber
            self.subscriptionID = subscriptionID
        }

        /// The subscription a planned notification is for.
        init(_ planned: NewNotification) {
            let notification = planned.notification
            subscriber = SubscriberKey(
                container: planned.container, environment: planned.environment, scope: notification.databaseScope, user: planned.recipient
            )
            subscriptionID = notification.subscriptionID ?? ""
        }
    }

    private struct State {
        var published: UInt64 = 0
        /// For each subscription being created: the last commit published before its save.
        var bornAfter: [Key: UInt64] = [:]
    }

    private let state = Mutex(State())

    /// Numbers a commit as it is published.
    func published() -> UInt64 {
        state.withLock { state in
            state.published += 1
            return state.published
        }
    }

    /// Marks subscriptions about to be created: commits published so far do not fire them.
    func creating(_ ids: [String], of subscriber: SubscriberKey) {
        state.withLock { state in
            for id in ids { state.bornAfter[Key(subscriber: subscriber, subscriptionID: id)] = state.published }
        }
    }

    /// Drops the marks of creates that did not happen (an ID already taken keeps its own past).
    func notCreated(_ ids: [String], of subscriber: SubscriberKey) {
        state.withLock { state in
            for id in ids { state.bornAfter[Key(subscriber: subscriber, subscriptionID: id)] = nil }
        }
    }

    /// Whether the subscription `key` may fire for commit number `commit`.
    func mayFire(_ key: Key, for commit: UInt64) -> Bool {
        state.withLock { state in state.bornAfter[key].map { commit > $0 } ?? true }
    }

    /// Every commit up to `commit` is delivered: the marks that could only hold those back go.
    func delivered(through commit: UInt64) {
        state.withLock { state in state.bornAfter = state.bornAfter.filter { $0.value > commit } }
    }
}
