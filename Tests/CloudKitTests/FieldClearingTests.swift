import CloudKit
import Foundation
import Testing

/// Setting a key to `nil` and saving, as Apple's framework does it: the key is removed on the
/// server and nothing else — fields this device never held (a record rebuilt from
/// `encodeSystemFields`, fetched with `desiredKeys`) stay, under every save policy, and a
/// `.changedKeys` save keeps another device's newer edit of another field.
@Suite struct FieldClearingTests {
    private static let zoneID = CKRecordZone.ID(zoneName: "Journal")

    /// A copy made the way CKSyncEngine apps make one: the system fields, archived and read back.
    static func fromSystemFields(_ record: CKRecord) throws -> CKRecord {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        record.encodeSystemFields(with: archiver)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = true
        return try #require(CKRecord(coder: unarchiver))
    }

    private func saveEntry(_ name: String, in db: CKDatabase) async throws -> CKRecord {
        _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
        let entry = CKRecord(recordType: "Entry", recordID: CKRecord.ID(recordName: name, zoneID: Self.zoneID))
        entry["title"] = "Lisbon"
        entry["body"] = "tram 28"
        entry["mood"] = "sunny"
        return try await db.save(entry)
    }

    @Test(arguments: [CKModifyRecordsOperation.RecordSavePolicy.ifServerRecordUnchanged, .changedKeys, .allKeys])
    func clearingAFieldOfASystemFieldsCopyKeepsTheFieldsItNeverHeld(policy: CKModifyRecordsOperation.RecordSavePolicy) async throws {
        try await DevServer.with { server in
            let phone = try server.container("alice").privateCloudDatabase
            let saved = try await saveEntry("clear", in: phone)
            let copy = try Self.fromSystemFields(saved)
            copy["mood"] = nil

            let (saves, _) = try await phone.modifyRecords(saving: [copy], deleting: [], savePolicy: policy)
            let answered = try #require(try saves[copy.recordID]?.get())
            #expect(answered["mood"] == nil)

            let laptop = try server.container("alice").privateCloudDatabase
            let back = try await laptop.record(for: copy.recordID)
            #expect(back["title"] as? String == "Lisbon")
            #expect(back["body"] as? String == "tram 28")
            #expect(back["mood"] == nil)
        }
    }

    @Test func aChangedKeysSaveThatClearsAFieldKeepsAnotherDevicesNewerEditOfAnotherField() async throws {
        try await DevServer.with { server in
            let phone = try server.container("alice").privateCloudDatabase
            let laptop = try server.container("alice").privateCloudDatabase
            let stale = try await saveEntry("merge", in: phone)
            let other = try await laptop.record(for: stale.recordID)
            other["body"] = "newer, from the laptop"
            _ = try await laptop.save(other)

            stale["title"] = nil
            let operation = CKModifyRecordsOperation(recordsToSave: [stale], recordIDsToDelete: nil)
            operation.savePolicy = .changedKeys
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Error>) in
                operation.modifyRecordsResultBlock = { done.resume(with: $0) }
                phone.add(operation)
            }

            let back = try await laptop.record(for: stale.recordID)
            #expect(back["title"] == nil)
            #expect(back["body"] as? String == "newer, from the laptop")
            #expect(back["mood"] as? String == "sunny")
        }
    }

    @Test func aRecordFetchedWithDesiredKeysThatClearsOneOfThemKeepsTheKeysItWasNotSent() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let saved = try await saveEntry("desired", in: db)
            let partial = try #require(try await db.records(for: [saved.recordID], desiredKeys: ["mood"])[saved.recordID]?.get())
            #expect(partial["title"] == nil, "fetched without the title")
            partial["mood"] = nil
            _ = try await db.save(partial)

            let back = try await db.record(for: saved.recordID)
            #expect(back["title"] as? String == "Lisbon")
            #expect(back["body"] as? String == "tram 28")
            #expect(back["mood"] == nil)
        }
    }

    @Test func clearingTheParentKeepsTheFieldsAndTheRecordStopsBeingAChild() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let trip = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: "trip", zoneID: Self.zoneID))
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
            let entry = CKRecord(recordType: "Entry", recordID: CKRecord.ID(recordName: "child", zoneID: Self.zoneID))
            entry["title"] = "kept"
            entry.setParent(trip)
            _ = try await db.modifyRecords(saving: [trip, entry], deleting: [])

            let copy = try Self.fromSystemFields(try await db.record(for: entry.recordID))
            #expect(copy.parent?.recordID == trip.recordID)
            copy.parent = nil
            _ = try await db.save(copy)

            let back = try await db.record(for: entry.recordID)
            #expect(back.parent == nil)
            #expect(back["title"] as? String == "kept")
        }
    }
}
