import CloudKit
import Testing

/// Subscriptions send what apps set and come back with it: a zone or database subscription's
/// record type, the notification info's alert, title, subtitle, category, desired keys and
/// mutable content; a query subscription's predicate (which runs) and its zone — none: every zone.
@Suite struct SubscriptionRoundTripTests {
    /// A save replaces a subscription, as Apple's does: devices of one account saving the same
    /// one at once (engines starting together) all succeed, whoever made it first.
    @Test func devicesSavingTheSameSubscriptionAtOnceAllSucceed() async throws {
        try await DevServer.with { server in
            let databases = try (0..<4).map { _ in try server.container("alice").privateCloudDatabase }
            try await withThrowingTaskGroup(of: CKSubscription.ID.self) { group in
                for database in databases {
                    group.addTask { try await database.save(CKDatabaseSubscription(subscriptionID: "everything")).subscriptionID }
                }
                for try await saved in group { #expect(saved == "everything") }
            }
            #expect(try await databases[0].allSubscriptions().map(\.subscriptionID) == ["everything"])
        }
    }

    @Test func subscriptionsComeBackAsSaved() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Notes")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let info = CKSubscription.NotificationInfo(
                alertBody: "New note", title: "Notes", subtitle: "Shared", desiredKeys: ["text"], shouldSendMutableContent: true,
                category: "NOTE"
            )
            let zone = CKRecordZoneSubscription(zoneID: zoneID, subscriptionID: "zone-notes")
            zone.recordType = "Note"
            zone.notificationInfo = info
            let database = CKDatabaseSubscription(subscriptionID: "db-notes")
            database.recordType = "Note"
            let query = CKQuerySubscription(
                recordType: "Note", predicate: NSPredicate(format: "text BEGINSWITH %@", "Hello"), subscriptionID: "q-hello",
                options: [.firesOnRecordCreation]
            )
            let (saves, _) = try await db.modifySubscriptions(saving: [zone, database, query], deleting: [])
            #expect(saves.values.allSatisfy { (try? $0.get()) != nil })

            let fetched = try await db.subscriptions(for: ["zone-notes", "db-notes", "q-hello"])
            let backZone = try #require(try fetched["zone-notes"]?.get() as? CKRecordZoneSubscription)
            #expect(backZone.recordType == "Note" && backZone.zoneID == zoneID)
            let backInfo = try #require(backZone.notificationInfo)
            #expect(backInfo.alertBody == "New note" && backInfo.title == "Notes" && backInfo.subtitle == "Shared")
            #expect(backInfo.desiredKeys == ["text"] && backInfo.shouldSendMutableContent && backInfo.category == "NOTE")
            #expect((try fetched["db-notes"]?.get() as? CKDatabaseSubscription)?.recordType == "Note")

            let backQuery = try #require(try fetched["q-hello"]?.get() as? CKQuerySubscription)
            #expect(backQuery.recordType == "Note" && backQuery.zoneID == nil && backQuery.querySubscriptionOptions == [.firesOnRecordCreation])
            for (name, text) in [("a", "Hello there"), ("b", "Goodbye")] {
                let note = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
                note["text"] = text
                _ = try await db.save(note)
            }
            let (matches, _) = try await db.records(matching: CKQuery(recordType: "Note", predicate: backQuery.predicate))
            #expect(matches.map(\.0.recordName) == ["a"])

            // An archived subscription restores what it held.
            let data = try NSKeyedArchiver.archivedData(withRootObject: backZone, requiringSecureCoding: true)
            let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKSubscription.self, from: data) as? CKRecordZoneSubscription)
            #expect(restored.subscriptionID == "zone-notes" && restored.recordType == "Note" && restored.notificationInfo?.title == "Notes")
        }
    }
}
