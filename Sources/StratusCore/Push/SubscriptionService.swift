import StratusModel
import StratusStore

/// subscriptions/list, subscriptions/lookup and subscriptions/modify: the caller's push triggers
/// in one database.
///
/// What CloudKit allows where: `database` subscriptions in the private and shared databases;
/// `zone` subscriptions in the private database, each naming one custom zone (the default zone
/// has none, and `zoneWide` belongs to query subscriptions); `query` subscriptions in the
/// private and public databases (not the shared one). A zone must exist; in production a
/// query's record type must be in the schema.
public struct SubscriptionService: Sendable {
    let store: any PushStore & RecordStore
    let access: DatabaseAccess
    let schema: SchemaCache
    let configuration: CoreConfiguration
    let cache: SubscriptionCache

    /// The caller's subscriptions in the database.
    public func list(scope: RequestScope) async throws(CoreError) -> SubscriptionsResponse {
        let subscriber = try self.subscriber(scope)
        do {
            return SubscriptionsResponse(subscriptions: try await store.subscriptions(of: subscriber).map { .success($0) })
        } catch {
            throw CoreError(error)
        }
    }

    /// The named subscriptions; an unknown one is a `NOT_FOUND` entry.
    public func lookup(_ request: LookupSubscriptionsRequest, scope: RequestScope) async throws(CoreError) -> SubscriptionsResponse {
        let subscriber = try self.subscriber(scope)
        try configuration.checkCount(request.subscriptions.count, of: "subscriptions")
        do {
            let existing = Dictionary(try await store.subscriptions(of: subscriber).map { ($0.subscriptionID, $0) }) { first, _ in first }
            return SubscriptionsResponse(subscriptions: request.subscriptions.map { item in
                existing[item.subscriptionID].map { .success($0) }
                    ?? .failure(error(item.subscriptionID, .notFound, "no subscription has the ID '\(item.subscriptionID)'"))
            })
        } catch {
            throw CoreError(error)
        }
    }

    /// Creates, updates and deletes in order, in one transaction; an invalid operation is a
    /// per-item error and changes nothing for that item.
    public func modify(_ request: ModifySubscriptionsRequest, scope: RequestScope) async throws(CoreError) -> SubscriptionsResponse {
        let subscriber = try self.subscriber(scope)
        try configuration.checkCount(request.operations.count, of: "operations")
        for operation in request.operations where operation.operationType != .delete {
            if let query = operation.subscription.query { try Self.check(query) }
        }
        do {
            var results: [SubscriptionResult?] = []
            var changes: [SubscriptionChange] = []
            for operation in request.operations {
                if let failure = try await invalid(operation, subscriber: subscriber) {
                    results.append(.failure(failure))
                    continue
                }
                results.append(nil)
                switch operation.operationType {
                case .create: changes.append(.create(operation.subscription))
                case .update: changes.append(.update(operation.subscription))
                case .delete: changes.append(.delete(subscriptionID: operation.subscription.subscriptionID))
                }
            }
            let creating = changes.compactMap { change -> String? in
                if case .create(let subscription) = change { subscription.subscriptionID } else { nil }
            }
            cache.births.creating(creating, of: subscriber)
            var stored = false
            defer { if !stored { cache.births.notCreated(creating, of: subscriber) } }
            let saved = try await store.modifySubscriptions(changes, of: subscriber)
            stored = true
            var createOutcomes = saved.makeIterator()
            let refused = changes.compactMap { change -> String? in
                let outcome = createOutcomes.next()
                guard case .create(let subscription) = change else { return nil }
                if case .saved? = outcome { return nil }
                return subscription.subscriptionID
            }
            cache.births.notCreated(refused, of: subscriber)
            var outcomes = saved.makeIterator()
            cache.invalidate(subscriber)
            return SubscriptionsResponse(subscriptions: zip(results, request.operations).map { result, operation in
                if let result { return result }
                let id = operation.subscription.subscriptionID
                switch outcomes.next() {
                case .saved(let subscription)?, .deleted(let subscription)?: return .success(subscription)
                case .exists?: return .failure(error(id, .exists, "a subscription with the ID '\(id)' already exists"))
                case .notFound?, nil: return .failure(error(id, .notFound, "no subscription has the ID '\(id)'"))
                }
            })
        } catch {
            throw CoreError(error)
        }
    }

    /// A query records/query would refuse outright (bad names, unknown system fields) fails the
    /// request the same way here.
    private static func check(_ query: Query) throws(CoreError) {
        guard NameRules.isValidIdentifier(query.recordType) else {
            throw CoreError.badRequest("invalid recordType '\(query.recordType)' in a subscription's query")
        }
        for filter in query.filterBy ?? [] { _ = try QueryTranslation.predicate(for: filter) }
        for sort in query.sortBy ?? [] { _ = try QueryTranslation.sortKey(for: sort) }
    }

    /// Subscriptions belong to a signed-in user and the database addressed.
    private func subscriber(_ scope: RequestScope) throws(CoreError) -> SubscriberKey {
        let ref = scope.database
        guard let user = scope.caller.userRecordName else { throw access.authenticationRequired(scope) }
        return SubscriberKey(container: ref.container, environment: ref.environment, scope: ref.scope, user: user)
    }

    /// Why an operation cannot apply, or `nil`.
    private func invalid(_ operation: ModifySubscriptionsRequest.Operation, subscriber: SubscriberKey) async throws(StoreError) -> SubscriptionError? {
        let subscription = operation.subscription
        let id = subscription.subscriptionID
        guard NameRules.isValidRecordName(id) else { return error(id, .badRequest, "subscriptionID must be 1-255 characters") }
        if operation.operationType == .delete { return nil }
        let scope = subscriber.scope
        guard let kind = subscription.kind else {
            let given = subscription.subscriptionType.map { "'\($0)'" } ?? "none"
            return error(id, .badRequest, "subscriptionType must be zone, query or database (got \(given))")
        }
        if let recordType = subscription.recordType {
            guard kind != .query else { return error(id, .badRequest, "a query subscription names its record type in its query, not in recordType") }
            guard NameRules.isValidIdentifier(recordType) else { return error(id, .badRequest, "invalid recordType '\(recordType)'") }
        }
        switch kind {
        case .database:
            guard scope != .public else {
                return error(id, .badRequest, "database subscriptions exist in the private and shared databases only")
            }
        case .zone:
            guard scope == .private else {
                return error(id, .badRequest, "zone subscriptions exist in the private database only (not in the \(scope.rawValue) database)")
            }
            guard subscription.zoneWide != true else {
                return error(id, .badRequest, "zoneWide belongs to query subscriptions: a zone subscription names its zone in zoneID")
            }
            guard let zoneID = subscription.zoneID else { return error(id, .badRequest, "a zone subscription needs zoneID") }
            guard !zoneID.isDefaultZone else {
                return error(id, .badRequest, "the default zone has no zone subscriptions: use a custom zone, or a query or database subscription")
            }
            if let failure = try await missingZone(zoneID, subscriber: subscriber, id: id) { return failure }
        case .query:
            guard scope != .shared else { return error(id, .badRequest, "query subscriptions are not supported in the shared database") }
            guard let query = subscription.query else { return error(id, .badRequest, "a query subscription needs query") }
            guard subscription.triggers != nil else {
                return error(id, .badRequest, "firesOn must list one or more of create, update, delete")
            }
            guard (query.filterBy?.count ?? 0) <= configuration.limits.filtersPerQuery else {
                return error(id, .badRequest, "a query may have at most \(configuration.limits.filtersPerQuery) filters")
            }
            if subscriber.environment == .production {
                let known = try await schema.schema(container: subscriber.container, environment: .production)
                guard known[query.recordType] != nil else {
                    return error(id, .badRequest, "record type '\(query.recordType)' is not in the production schema")
                }
            }
            if subscription.zoneWide != true, let zoneID = subscription.zoneID {
                if let failure = try await missingZone(zoneID, subscriber: subscriber, id: id) { return failure }
            }
        }
        return nil
    }

    private func missingZone(_ zoneID: ZoneID, subscriber: SubscriberKey, id: String) async throws(StoreError) -> SubscriptionError? {
        let owner = subscriber.scope == .public ? DatabaseKey.publicOwner : subscriber.user
        let database = DatabaseKey(container: subscriber.container, environment: subscriber.environment, scope: subscriber.scope, owner: owner)
        guard let key = access.zoneKey(zoneID, in: database) else {
            return error(id, .zoneNotFound, "zone '\(zoneID.zoneName)' does not exist")
        }
        if zoneID.isDefaultZone { return nil }
        guard try await store.zone(key) != nil else { return error(id, .zoneNotFound, "zone '\(zoneID.zoneName)' does not exist") }
        return nil
    }

    private func error(_ id: String, _ code: ServerErrorCode, _ reason: String) -> SubscriptionError {
        SubscriptionError(subscriptionID: id, serverErrorCode: code, reason: reason, uuid: ErrorUUID.make())
    }
}
