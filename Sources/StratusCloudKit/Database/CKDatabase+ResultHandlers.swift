import Foundation

/// The completion-handler forms whose handler takes a `Result`, as Apple's interface declares
/// them beside each async call (apps written before async/await, and libraries that support
/// both, call these). Each runs its async counterpart in a `Task` and calls the handler once.
extension CKDatabase {
    /// The zones with these IDs, each the zone or why it could not be fetched.
    public func fetch(
        withRecordZoneIDs zoneIDs: [CKRecordZone.ID],
        completionHandler: @escaping @Sendable (Result<[CKRecordZone.ID: Result<CKRecordZone, any Error>], any Error>) -> Void
    ) {
        answer(completionHandler) { try await self.recordZones(for: zoneIDs) }
    }

    /// Saves and deletes zones: each one's result, or the request's error.
    public func modifyRecordZones(
        saving recordZonesToSave: [CKRecordZone], deleting recordZoneIDsToDelete: [CKRecordZone.ID],
        completionHandler: @escaping @Sendable (
            Result<(saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>]), any Error>
        ) -> Void
    ) {
        answer(completionHandler) { try await self.modifyRecordZones(saving: recordZonesToSave, deleting: recordZoneIDsToDelete) }
    }

    /// The subscriptions with these IDs, each the subscription or why it could not be fetched.
    public func fetch(
        withSubscriptionIDs subscriptionIDs: [CKSubscription.ID],
        completionHandler: @escaping @Sendable (Result<[CKSubscription.ID: Result<CKSubscription, any Error>], any Error>) -> Void
    ) {
        answer(completionHandler) { try await self.subscriptions(for: subscriptionIDs) }
    }

    /// Saves and deletes subscriptions: each one's result, or the request's error.
    public func modifySubscriptions(
        saving subscriptionsToSave: [CKSubscription], deleting subscriptionIDsToDelete: [CKSubscription.ID],
        completionHandler: @escaping @Sendable (
            Result<
                (saveResults: [CKSubscription.ID: Result<CKSubscription, any Error>], deleteResults: [CKSubscription.ID: Result<Void, any Error>]),
                any Error
            >
        ) -> Void
    ) {
        answer(completionHandler) { try await self.modifySubscriptions(saving: subscriptionsToSave, deleting: subscriptionIDsToDelete) }
    }

    /// One page of a query's results and the cursor of the next.
    public func fetch(
        withQuery query: CKQuery, inZoneWith zoneID: CKRecordZone.ID? = nil, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults,
        completionHandler: @escaping @Sendable (
            Result<(matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?), any Error>
        ) -> Void
    ) {
        answer(completionHandler) {
            try await self.records(matching: query, inZoneWith: zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
        }
    }

    /// The page of a query's results after `queryCursor`.
    public func fetch(
        withCursor queryCursor: CKQueryOperation.Cursor, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults,
        completionHandler: @escaping @Sendable (
            Result<(matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?), any Error>
        ) -> Void
    ) {
        answer(completionHandler) { try await self.records(continuingMatchFrom: queryCursor, desiredKeys: desiredKeys, resultsLimit: resultsLimit) }
    }

    /// Zones changed and deleted since the token.
    public func fetchDatabaseChanges(
        since changeToken: CKServerChangeToken?, resultsLimit: Int? = nil,
        completionHandler: @escaping @Sendable (
            Result<
                (modifications: [DatabaseChange.Modification], deletions: [DatabaseChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool),
                any Error
            >
        ) -> Void
    ) {
        answer(completionHandler) { try await self.databaseChanges(since: changeToken, resultsLimit: resultsLimit) }
    }

    /// A zone's records changed and deleted since the token.
    public func fetchRecordZoneChanges(
        inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int? = nil,
        completionHandler: @escaping @Sendable (
            Result<
                (
                    modificationResultsByID: [CKRecord.ID: Result<RecordZoneChange.Modification, any Error>], deletions: [RecordZoneChange.Deletion],
                    changeToken: CKServerChangeToken, moreComing: Bool
                ), any Error
            >
        ) -> Void
    ) {
        answer(completionHandler) {
            try await self.recordZoneChanges(inZoneWith: zoneID, since: changeToken, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
        }
    }

}

/// Runs `body` in a task and hands its answer or its error to `handler`, once: every
/// `Result` completion-handler form of the database and the container.
func answer<Value>(_ handler: @escaping @Sendable (Result<Value, any Error>) -> Void, _ body: @escaping @Sendable () async throws -> Value) {
    Task {
        do { handler(.success(try await body())) } catch { handler(.failure(error)) }
    }
}
