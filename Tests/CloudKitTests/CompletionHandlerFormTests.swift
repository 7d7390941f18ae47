import CloudKit
import Testing

/// The `Result` completion-handler forms apps written before async/await call, each calling its
/// handler once with what the async call answers.
@Suite struct CompletionHandlerFormTests {
    @Test func completionHandlerFormsAnswerAsTheAsyncCalls() async throws {
        try await DevServer.with { server in
            let container = try server.container("alice")
            let db = container.privateCloudDatabase
            let zone = CKRecordZone(zoneID: CKRecordZone.ID(zoneName: "Handlers"))
            let saved: Result<Int, any Error> = await withCheckedContinuation { done in
                db.modifyRecordZones(saving: [zone], deleting: []) { result in done.resume(returning: result.map { $0.saveResults.count }) }
            }
            #expect(try saved.get() == 1)
            let fetched: Result<Int, any Error> = await withCheckedContinuation { done in
                db.fetch(withRecordZoneIDs: [zone.zoneID]) { result in done.resume(returning: result.map(\.count)) }
            }
            #expect(try fetched.get() == 1)

            let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "n", zoneID: zone.zoneID))
            record["text"] = "hello"
            _ = try await db.save(record)
            let query = CKQuery(recordType: "Note", predicate: NSPredicate(value: true))
            let matched: Result<Int, any Error> = await withCheckedContinuation { done in
                db.fetch(withQuery: query, inZoneWith: zone.zoneID) { result in done.resume(returning: result.map { $0.matchResults.count }) }
            }
            #expect(try matched.get() == 1)
            let changes: Result<Int, any Error> = await withCheckedContinuation { done in
                db.fetchRecordZoneChanges(inZoneWith: zone.zoneID, since: nil) { result in
                    done.resume(returning: result.map { $0.modificationResultsByID.count })
                }
            }
            #expect(try changes.get() == 1)
            let zones: Result<Int, any Error> = await withCheckedContinuation { done in
                db.fetchDatabaseChanges(since: nil) { result in done.resume(returning: result.map { $0.modifications.count }) }
            }
            #expect(try zones.get() >= 1)
            let subscription = CKDatabaseSubscription(subscriptionID: "all")
            let subscribed: Result<Int, any Error> = await withCheckedContinuation { done in
                db.modifySubscriptions(saving: [subscription], deleting: []) { result in done.resume(returning: result.map { $0.saveResults.count }) }
            }
            #expect(try subscribed.get() == 1)
            let participants: Result<Int, any Error> = await withCheckedContinuation { done in
                container.fetchShareParticipants(forEmailAddresses: ["bob@example.com"]) { result in
                    done.resume(returning: result.map { $0.values.filter { (try? $0.get()) != nil }.count })
                }
            }
            #expect(try participants.get() == 1)
            let configured = try await db.configuredWith(group: CKOperationGroup()) { configured in try await configured.allRecordZones().count }
            #expect(configured >= 2)
        }
    }
}
