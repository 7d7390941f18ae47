import StratusModel
import StratusStore
import Testing

@testable import StratusCore

/// A subscription fires only for the commits published after its save began: delivery plans a
/// commit after the fact, when a subscription saved meanwhile may already be in the store.
@Suite struct SubscriptionBirthsTests {
    private let alice = SubscriberKey(container: "iCloud.test", environment: .development, scope: .private, user: "_alice")

    private func key(_ id: String) -> SubscriptionBirths.Key { SubscriptionBirths.Key(subscriber: alice, subscriptionID: id) }

    @Test func aSubscriptionBeingCreatedFiresForLaterCommitsOnly() {
        let births = SubscriptionBirths()
        let before = births.published()
        births.creating(["db"], of: alice)
        let after = births.published()
        #expect(!births.mayFire(key("db"), for: before))
        #expect(births.mayFire(key("db"), for: after))
        #expect(births.mayFire(key("other"), for: before), "a subscription not being created keeps its past")
    }

    @Test func aCreateThatDidNotHappenHoldsNothingBack() {
        let births = SubscriptionBirths()
        let before = births.published()
        births.creating(["taken"], of: alice)
        births.notCreated(["taken"], of: alice)
        #expect(births.mayFire(key("taken"), for: before), "the subscription that has the ID is told of the commit")
    }

    @Test func marksGoOnceTheCommitsTheyHoldBackAreDelivered() {
        let births = SubscriptionBirths()
        let first = births.published()
        births.creating(["db"], of: alice)
        births.delivered(through: first - 1)
        #expect(!births.mayFire(key("db"), for: first), "kept while its commit waits")
        births.delivered(through: first)
        #expect(births.mayFire(key("db"), for: first), "forgotten once every commit it held back was delivered")
    }
}
