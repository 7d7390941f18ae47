import Logging
import ServiceLifecycle
import StratusModel
import StratusStore
import Synchronization

/// Turns committed changes into notifications, after commit and off the write path.
///
/// Services hand each committed change to ``publish(_:)``, which only queues it. One worker,
/// ``delivery`` (a `Service` in the application's group), drains the queue: plans every queued
/// change, appends the notifications to the store in chunks (a short write each, whatever the
/// fan-out), then wakes the feeds' waiters through the hub. A change that rolled back is never
/// published, so it notifies no one; one acknowledged before a graceful shutdown is delivered
/// before the worker stops (the HTTP server stops first, so none is published after).
public final class PushDispatcher: Sendable {
    /// Notifications appended per store write.
    static let chunk = 500

    public let hub: any NotificationHub
    /// Subscriptions in memory for matching; ``SubscriptionService`` drops what it changes.
    let subscriptions: SubscriptionCache
    /// The newest notifications per feed, for polls woken together (none when the store is
    /// shared: another instance's appends would be missing from it).
    let recent: RecentFeeds
    /// Every commit published, with the notifications it produced (the admin activity feed).
    public let activity: ActivityLog
    /// The worker: runs in the application's service group until a graceful shutdown, then
    /// delivers what is still queued and returns.
    public let delivery: Delivery
    private let now: @Sendable () -> Int64
    private let queue: EventQueue
    private let signal: AsyncStream<Void>.Continuation

    public convenience init(
        store: any PushStore & ShareStore & RecordStore, hub: any NotificationHub = LocalNotificationHub(),
        retention: NotificationRetention = NotificationRetention(), now: @escaping @Sendable () -> Int64,
        activity: ActivityLog = ActivityLog(), relay: InstanceRelay = InstanceRelay(signals: nil),
        logger: Logger = Logger(label: "stratus.push")
    ) {
        self.init(store: store, hub: hub, retention: retention, now: now, activity: activity, relay: relay, logger: logger, schema: nil)
    }

    /// A dispatcher whose public-database notifications go only to subscribers the security
    /// roles of `schema`'s documents let read the changed record (`nil`: to every subscriber).
    init(
        store: any PushStore & ShareStore & RecordStore, hub: any NotificationHub, retention: NotificationRetention,
        now: @escaping @Sendable () -> Int64, activity: ActivityLog, relay: InstanceRelay, logger: Logger, schema: SchemaCache?
    ) {
        let recent = RecentFeeds(capacity: relay.isShared ? 0 : 1_024)
        self.recent = recent
        let (stream, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.hub = hub
        self.activity = activity
        self.now = now
        let subscriptions = SubscriptionCache(store: store, relay: relay)
        self.subscriptions = subscriptions
        self.signal = signal
        let worker = Worker(
            planner: NotificationPlanner(store: store, subscriptions: subscriptions, schema: schema), store: store, subscriptions: subscriptions,
            recent: recent, hub: hub, activity: activity, retention: retention, now: now, logger: logger
        )
        let queue = EventQueue()
        self.queue = queue
        self.delivery = Delivery(stream: stream, signal: signal, queue: queue, worker: worker)
    }

    deinit { signal.finish() }

    /// The queue's worker as a service.
    public struct Delivery: Service {
        fileprivate let stream: AsyncStream<Void>
        fileprivate let signal: AsyncStream<Void>.Continuation
        fileprivate let queue: EventQueue
        fileprivate let worker: Worker

        public func run() async {
            await withGracefulShutdownHandler {
                for await _ in stream { await worker.deliver(queue.takeAll()) }
            } onGracefulShutdown: { [signal] in
                signal.finish()
            }
            // Stopping: what was acknowledged and queued is still delivered.
            await worker.deliver(queue.takeAll())
        }
    }

    /// Queues a committed change for delivery; returns at once. The worker records it in the
    /// activity log once it knows the notifications it produced.
    public func publish(_ event: CommitEvent?) {
        guard let event else { return }
        // Numbered under the queue's lock, so the queue is in commit-number order.
        queue.pending.withLock { $0.append(Published(event: event, time: now(), number: subscriptions.births.published())) }
        signal.yield()
    }

    /// A change published, and when.
    fileprivate struct Published: Sendable {
        var event: CommitEvent
        var time: Int64
        /// Its place among the commits published (``SubscriptionBirths``).
        var number: UInt64

        func activity(notifications: [NewNotification]) -> ActivityEntry {
            let database = event.zone.database
            return ActivityEntry(
                time: time, kind: .commit, container: database.container, environment: database.environment, database: database.scope,
                userRecordName: event.author, deviceID: event.originDevice,
                zoneID: ZoneID(zoneName: event.zone.name, ownerRecordName: database.owner), recordNames: event.touched.sorted(),
                notifications: notifications.count, notifiedUserRecordNames: Set(notifications.map(\.recipient)).sorted()
            )
        }
    }

    /// Changes published and not yet delivered.
    fileprivate final class EventQueue: Sendable {
        let pending = Mutex<[Published]>([])

        func takeAll() -> [Published] {
            pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
        }
    }

    /// Identifies a subscription across a drain.
    private struct OnceKey: Hashable {
        var user: String
        var scope: DatabaseScope
        var subscriptionID: String?

        init(_ subscriber: SubscriberKey, _ id: String) {
            (user, scope, subscriptionID) = (subscriber.user, subscriber.scope, id)
        }

        init(_ recipient: String, _ notification: PushNotification) {
            (user, scope, subscriptionID) = (recipient, notification.databaseScope, notification.subscriptionID)
        }
    }

    /// The queue's consumer.
    fileprivate struct Worker: Sendable {
        let planner: NotificationPlanner
        let store: any PushStore
        let subscriptions: SubscriptionCache
        let recent: RecentFeeds
        let hub: any NotificationHub
        let activity: ActivityLog
        let retention: NotificationRetention
        let now: @Sendable () -> Int64
        let logger: Logger

        func deliver(_ published: [Published]) async {
            var notifications: [NewNotification] = []
            var fired: [StoredSubscription] = []
            for item in published {
                let event = item.event
                var produced: [NewNotification] = []
                defer { activity.record(item.activity(notifications: produced)) }
                do {
                    let planned = try await planner.plan(event, now: now())
                    // A fires-once subscription fires for the first of the drained changes only;
                    // a subscription created after the change was published not at all.
                    let retired = Set(fired.map { OnceKey($0.subscriber, $0.subscription.subscriptionID) })
                    let births = subscriptions.births
                    produced = planned.notifications.filter { planned in
                        !retired.contains(OnceKey(planned.recipient, planned.notification))
                            && births.mayFire(SubscriptionBirths.Key(planned), for: item.number)
                    }
                    notifications += produced
                    fired += planned.fired.filter {
                        !retired.contains(OnceKey($0.subscriber, $0.subscription.subscriptionID))
                            && births.mayFire(SubscriptionBirths.Key(subscriber: $0.subscriber, subscriptionID: $0.subscription.subscriptionID), for: item.number)
                    }
                } catch {
                    logger.error("push: cannot match a change to subscriptions", metadata: ["zone": "\(event.zone.name)", "error": "\(error)"])
                }
            }
            if let last = published.last { subscriptions.births.delivered(through: last.number) }
            guard !notifications.isEmpty else { return }
            var start = 0
            while start < notifications.count {
                let slice = Array(notifications[start..<min(start + PushDispatcher.chunk, notifications.count)])
                start += slice.count
                do {
                    let appendedAt = now()
                    let position = try await store.appendNotifications(slice, retention: retention, now: appendedAt)
                    // One transaction under the writer: the slice got consecutive positions ending at `position`.
                    var entries: [FeedKey: [RecentFeeds.Entry]] = [:]
                    for (offset, item) in slice.enumerated() {
                        var notification = item.notification
                        let itemPosition = position - Int64(slice.count - 1 - offset)
                        notification.notificationID = String(itemPosition)
                        let feed = FeedKey(recipient: item.recipient, container: item.container, environment: item.environment)
                        entries[feed, default: []].append(RecentFeeds.Entry(
                            position: itemPosition, originDevice: item.originDevice, notification: EncodedNotification(notification)
                        ))
                    }
                    for (feed, appended) in entries { recent.record(feed, appended, now: appendedAt, age: retention.age) }
                    hub.publish(Set(entries.keys), through: position)
                } catch {
                    logger.error("push: cannot store notifications", metadata: ["count": "\(slice.count)", "error": "\(error)"])
                }
            }
            do {
                try await store.deleteSubscriptions(fired)
                for subscriber in Set(fired.map(\.subscriber)) { subscriptions.invalidate(subscriber) }
            } catch {
                logger.error("push: cannot retire fired-once subscriptions", metadata: ["error": "\(error)"])
            }
            logger.debug("push: delivered", metadata: ["changes": "\(published.count)", "notifications": "\(notifications.count)"])
        }
    }
}
