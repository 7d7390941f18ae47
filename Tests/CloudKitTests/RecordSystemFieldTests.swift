import CloudKit
import Foundation
import Testing

/// The system fields the server keeps: change tag, creation and modification dates and users,
/// and the parent a record belongs to (`parent`, `setParent`).
@Suite struct RecordSystemFieldTests {
    @Test func saveSetsTheChangeTagDatesAndCreator() async throws {
        try await DevServer.with { server in
            let container = try server.container("alice")
            let db = container.privateCloudDatabase
            let me = try await container.userRecordID()
            let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "lisbon"))
            record["caption"] = "Lisbon"
            #expect(record.recordChangeTag == nil && record.creationDate == nil && record.modificationDate == nil)
            #expect(record.creatorUserRecordID == nil)

            let saved = try await db.save(record)
            #expect(saved.recordChangeTag != nil)
            let created = try #require(saved.creationDate)
            let modified = try #require(saved.modificationDate)
            #expect(modified >= created)
            #expect(abs(created.timeIntervalSinceNow) < 600, "the creation date is the server's now")
            // Apple names the caller's own records' creator __defaultOwner__; the account's user record name is also right.
            let creator = try #require(saved.creatorUserRecordID)
            #expect(creator.recordName == me.recordName || creator.recordName == CKCurrentUserDefaultName)
            let modifier = try #require(saved.lastModifiedUserRecordID)
            #expect(modifier.recordName == me.recordName || modifier.recordName == CKCurrentUserDefaultName)

            saved["caption"] = "Lisbon again"
            let again = try await db.save(saved)
            #expect(again.recordChangeTag != saved.recordChangeTag)
            #expect(again.creationDate == created)
            let remodified = try #require(again.modificationDate)
            #expect(remodified >= modified)
        }
    }

    @Test func setParentNamesTheParentAndItSurvivesASave() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Trips")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let trip = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: "portugal", zoneID: zoneID))
            trip["title"] = "Portugal"
            let byRecord = CKRecord(recordType: "Stop", recordID: CKRecord.ID(recordName: "lisbon", zoneID: zoneID))
            byRecord.setParent(trip)
            let byID = CKRecord(recordType: "Stop", recordID: CKRecord.ID(recordName: "porto", zoneID: zoneID))
            byID.setParent(trip.recordID)
            #expect(byRecord.parent?.recordID == trip.recordID)
            #expect(byRecord.parent?.action == CKRecord.ReferenceAction.none)
            #expect(byID.parent?.recordID == trip.recordID)

            let (saves, _) = try await db.modifyRecords(saving: [trip, byRecord, byID], deleting: [])
            #expect(try saves[byRecord.recordID]?.get().parent?.recordID == trip.recordID)

            let lisbon = try await db.record(for: byRecord.recordID)
            let porto = try await db.record(for: byID.recordID)
            #expect(lisbon.parent?.recordID == trip.recordID)
            #expect(porto.parent?.recordID == trip.recordID)
            #expect(try await db.record(for: trip.recordID).parent == nil)
        }
    }

    /// Apple: `setParent(nil)` removes the parent. (Unsure the module/server supports it: an
    /// update that leaves `parent` out keeps the stored one.)
    @Test func setParentToNilRemovesTheParent() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Trips")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let trip = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: "portugal", zoneID: zoneID))
            let stop = CKRecord(recordType: "Stop", recordID: CKRecord.ID(recordName: "lisbon", zoneID: zoneID))
            stop.setParent(trip)
            _ = try await db.modifyRecords(saving: [trip, stop], deleting: [])

            let fetched = try await db.record(for: stop.recordID)
            #expect(fetched.parent?.recordID == trip.recordID)
            fetched.setParent(nil as CKRecord.ID?)
            #expect(fetched.parent == nil)
            _ = try await db.save(fetched)
            #expect(try await db.record(for: stop.recordID).parent == nil)
        }
    }
}
