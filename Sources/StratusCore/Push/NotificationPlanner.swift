import StratusModel
import StratusStore

/// Which subscriptions a committed change fires, and the notifications it makes, each for the
/// subscription's owner: one per database or zone subscription per change, and one per query
/// subscription per changed record its query answers (as CloudKit sends a CKQueryNotification
/// per record; a `firesOnce` subscription fires for the first only).
///
/// - The owner's private database: database subscriptions, zone subscriptions of the zone (or
///   zone-wide), query subscriptions of the zone whose query a changed record matches with a
///   `firesOn` reason that applies.
/// - Participants' shared databases: database subscriptions of every participant who sees a
///   changed record, or whose access to the zone changed in this change.
/// - The public database: zone subscriptions and query subscriptions of every user who may read
///   what changed (the schema's security roles: a query notification's record, any record of
///   the change for a zone notification).
struct NotificationPlanner: Sendable {
    let store: any PushStore & ShareStore & RecordStore
    let subscriptions: SubscriptionCache
    /// Where the public database's security roles come from; `nil`: no subscriber is filtered.
    var schema: SchemaCache? = nil

    /// The notifications, and the `firesOnce` subscriptions that fired.
    func plan(_ event: CommitEvent, now: Int64) async throws(StoreError) -> (notifications: [NewNotification], fired: [StoredSubscription]) {
        let database = event.zone.database
        // Each firing subscription with the record change it names (queries: one per record).
        var fired: [(subscription: StoredSubscription, change: RecordChange?)] = []
        switch database.scope {
        case .private:
            let own = try await subscriptions.subscriptions(
                container: database.container, environment: database.environment, scope: .private, users: [database.owner]
            )
            fired += own.flatMap { stored in firings(of: stored, for: event).map { (subscription: stored, change: $0) } }
            fired += try await participantSubscriptions(for: event).map { ($0, nil) }
        case .public:
            let all = try await subscriptions.subscriptions(container: database.container, environment: database.environment, scope: .public, users: nil)
            let firing: [(subscription: StoredSubscription, change: RecordChange?)] = all.flatMap { stored in
                firings(of: stored, for: event).map { (subscription: stored, change: $0) }
            }
            fired += try await readable(firing, event: event)
        case .shared:
            break
        }
        let notifications = fired.map { stored, change in
            NewNotification(
                container: database.container, environment: database.environment, recipient: stored.subscriber.user,
                // Only the author's own devices are told apart: another account's device of the same name is not the origin.
                originDevice: stored.subscriber.user == event.author ? event.originDevice : nil,
                notification: notification(for: stored, change: change, event: event, now: now)
            )
        }
        var once = Set<String>()
        let firedOnce = fired.map(\.subscription).filter { stored in
            stored.subscription.firesOnce == true && once.insert(stored.subscription.subscriptionID).inserted
        }
        return (notifications, firedOnce)
    }

    /// The notifications a private or public subscription makes for the change: none, one
    /// (`nil`: database and zone subscriptions), or for a query each changed record it answers.
    private func firings(of stored: StoredSubscription, for event: CommitEvent) -> [RecordChange?] {
        let subscription = stored.subscription
        let zoneName = event.zone.name
        switch subscription.kind {
        case .database:
            return concernsRecordType(subscription, event) ? [nil] : []
        case .zone:
            let matches = subscription.zoneWide == true || (subscription.zoneID?.zoneName ?? ZoneID.defaultZoneName) == zoneName
            return matches && concernsRecordType(subscription, event) ? [nil] : []
        case .query:
            guard let query = subscription.query,
                subscription.zoneWide == true || (subscription.zoneID?.zoneName ?? ZoneID.defaultZoneName) == zoneName,
                let predicate = RecordPredicate(query: query)
            else { return [] }
            let triggers = subscription.triggers ?? Set(Subscription.Trigger.allCases)
            let matching = event.changes.filter { change in triggers.contains(change.kind.trigger) && predicate.matches(change) }
            // A fires-once subscription is gone after its first notification.
            return subscription.firesOnce == true ? matching.prefix(1).map { $0 } : matching.map { $0 }
        case nil:
            return []
        }
    }

    /// The public database's firings whose subscriber may read what they notify of: a query
    /// notification's record, or for a zone notification any record of its type (when it names
    /// one) the change touched — a readable record of another type fires nothing.
    private func readable(
        _ firing: [(subscription: StoredSubscription, change: RecordChange?)], event: CommitEvent
    ) async throws(StoreError) -> [(subscription: StoredSubscription, change: RecordChange?)] {
        guard let schema, !firing.isEmpty else { return firing }
        let database = event.zone.database
        let roles = try await schema.securityRoles(container: database.container, environment: database.environment)
        var grantees: [String: Grantee] = [:]
        var kept: [(subscription: StoredSubscription, change: RecordChange?)] = []
        for item in firing {
            let user = item.subscription.subscriber.user
            let grantee: Grantee
            if let known = grantees[user] {
                grantee = known
            } else {
                grantee = try await schema.grantee(user: user, container: database.container, roles: roles)
                grantees[user] = grantee
            }
            let changes = item.change.map { [$0] } ?? event.changes.filter { concerns(item.subscription.subscription, $0) }
            if changes.contains(where: { roles.mayRead(recordType: $0.type, createdBy: $0.created?.userRecordName, grantee: grantee) }) {
                kept.append(item)
            }
        }
        return kept
    }

    /// Whether a zone or database subscription's `recordType` (when it names one) is the type of
    /// a record the change touched.
    private func concernsRecordType(_ subscription: Subscription, _ event: CommitEvent) -> Bool {
        // One of no type concerns every change, a commit of no record's (access changed) too.
        guard subscription.recordType != nil else { return true }
        return event.changes.contains { concerns(subscription, $0) }
    }

    /// Whether a zone or database subscription's `recordType` (when it names one) is `change`'s.
    private func concerns(_ subscription: Subscription, _ change: RecordChange) -> Bool {
        subscription.recordType.map { $0 == change.type } ?? true
    }

    /// Shared-database subscriptions of the zone's participants that this change concerns.
    private func participantSubscriptions(for event: CommitEvent) async throws(StoreError) -> [StoredSubscription] {
        let database = event.zone.database
        // Nobody subscribed to a shared database here: no need to ask who takes part.
        let shared = try await subscriptions.subscriptions(
            container: database.container, environment: database.environment, scope: .shared, users: nil
        )
        guard !shared.isEmpty else { return [] }
        let audience = try await store.sharedAudience(of: event.zone, changedAfter: event.previousSeq)
        let members = Set(audience.map(\.user))
        let subscriptions = shared.filter { members.contains($0.subscriber.user) }
        guard !subscriptions.isEmpty else { return [] }
        let subscribed = Set(subscriptions.map(\.subscriber.user))
        var concerned = Set<String>()
        var shares: [StoredShare]?
        for member in audience where subscribed.contains(member.user) {
            if member.accessChanged {
                concerned.insert(member.user)
                continue
            }
            if shares == nil { shares = try await store.shares(in: event.zone) }
            if try await sees(event, user: member.user, shares: shares ?? []) { concerned.insert(member.user) }
        }
        return subscriptions.filter {
            concerned.contains($0.subscriber.user) && $0.subscription.kind == .database && concernsRecordType($0.subscription, event)
        }
    }

    /// Whether a participant sees anything the change touched: a zone-wide share shows it all,
    /// a hierarchy share its root's tree and the share record.
    private func sees(_ event: CommitEvent, user: String, shares: [StoredShare]) async throws(StoreError) -> Bool {
        let accepted = shares.filter { $0.participant(user: user)?.status == .accepted }
        if accepted.contains(where: { $0.rootName == nil }) { return true }
        if accepted.contains(where: { event.touched.contains($0.record.name) }) { return true }
        let roots = accepted.compactMap(\.rootName)
        guard !roots.isEmpty, !event.touched.isEmpty else { return false }
        return !(try await store.hierarchy(rootedAt: roots, in: event.zone)).isDisjoint(with: event.touched)
    }

    /// A database notification names no zone (CKDatabaseNotification has none: the device
    /// fetches the database's changes); a zone notification names its zone, a query
    /// notification its record's zone.
    private func notification(for stored: StoredSubscription, change: RecordChange?, event: CommitEvent, now: Int64) -> PushNotification {
        let subscription = stored.subscription
        let scope = stored.subscriber.scope
        let zoneID = ZoneID(zoneName: event.zone.name, ownerRecordName: event.zone.database.owner)
        var notification = PushNotification(
            notificationID: "", notificationType: .database, subscriptionID: subscription.subscriptionID,
            containerIdentifier: event.zone.database.container, environment: event.zone.database.environment,
            databaseScope: scope, notificationInfo: subscription.notificationInfo, timestamp: now,
            subscriptionOwnerUserRecordName: stored.subscriber.user
        )
        switch subscription.kind {
        case .zone:
            notification.notificationType = .recordZone
            notification.zoneID = zoneID
        case .query:
            notification.notificationType = .query
            notification.zoneID = zoneID
            if let change {
                notification.recordName = change.name
                notification.queryNotificationReason = change.kind.reason
                notification.recordFields = Self.recordFields(of: change, keys: subscription.notificationInfo?.notifiedKeys ?? [])
            }
        default: break
        }
        return notification
    }

    /// The field types a query notification carries (`desiredKeys` admits strings, numbers,
    /// dates, locations and references; never data, assets or lists).
    static let notifiedTypes: Set<FieldType> = [.string, .int64, .double, .timestamp, .location, .reference]

    /// A created or updated record's values, after the change, of the subscription's desired
    /// keys that hold a type a notification carries; `nil` when none does, and for a deletion
    /// (CloudKit fills `recordFields` for creations and updates).
    static func recordFields(of change: RecordChange, keys: [String]) -> [String: Field]? {
        guard change.kind != .deleted, !keys.isEmpty else { return nil }
        var fields: [String: Field] = [:]
        for key in keys {
            guard var field = change.fields[key], notifiedTypes.contains(field.type) else { continue }
            // Milliseconds, as CKWS carries dates: a notification is a hint, not the record.
            field.exactDates = nil
            fields[key] = field
        }
        return fields.isEmpty ? nil : fields
    }
}

extension RecordChange.Kind {
    var trigger: Subscription.Trigger {
        switch self {
        case .created: .create
        case .updated: .update
        case .deleted: .delete
        }
    }

    var reason: PushNotification.QueryReason {
        switch self {
        case .created: .recordCreated
        case .updated: .recordUpdated
        case .deleted: .recordDeleted
        }
    }
}
