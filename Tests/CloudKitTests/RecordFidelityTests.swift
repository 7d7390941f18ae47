import CloudKit
import Testing

/// What a record holds reads back as the native framework reads it, on any device: dates to the
/// last bit (fields, encrypted values, lists), and a deleted record's type. A strict CKWS client
/// reading the same records sees only Apple's keys (whole milliseconds, tombstones by name).
@Suite struct RecordFidelityTests {
    @Test func aDateReadsBackEqualOnAnotherDeviceAndCKWSClientsSeeMilliseconds() async throws {
        try await DevServer.with { server in
            let phone = try server.container("alice").privateCloudDatabase
            let laptop = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Dates")
            _ = try await phone.save(CKRecordZone(zoneID: zoneID))
            let now = Date()
            let later = now.addingTimeInterval(0.000_123_4)
            let record = CKRecord(recordType: "Contact", recordID: CKRecord.ID(recordName: "ana", zoneID: zoneID))
            record["seen"] = now
            record["visits"] = [now, later]
            record.encryptedValues["edited"] = later
            _ = try await phone.save(record)

            let back = try await laptop.record(for: record.recordID)
            #expect(back["seen"] as? Date == now)
            #expect(back["visits"] as? [Date] == [now, later])
            #expect(back.encryptedValues["edited"] as? Date == later)
            let (changes, _, _, _) = try await laptop.recordZoneChanges(inZoneWith: zoneID, since: nil)
            #expect(try changes[record.recordID]?.get().record["seen"] as? Date == now)

            let ckws = try WebServicesClient(server, account: "alice")
            let lookup = try await ckws.post("records/lookup", ["zoneID": ["zoneName": "Dates"], "records": [["recordName": "ana"]]])
            let fields = (lookup["records"] as? [[String: Any]])?.first?["fields"] as? [String: [String: Any]] ?? [:]
            #expect(fields.values.allSatisfy { Set($0.keys) == ["type", "value"] }, "\(fields)")
            let milliseconds = (now.timeIntervalSince1970 * 1000).rounded()
            #expect((fields["seen"]?["value"] as? NSNumber)?.doubleValue == milliseconds)
        }
    }

    @Test func aDeletionFetchedByAnotherDeviceNamesTheRecordType() async throws {
        try await DevServer.with { server in
            let phone = try server.container("alice").privateCloudDatabase
            let laptop = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Deletions")
            _ = try await phone.save(CKRecordZone(zoneID: zoneID))
            let doomed = try await phone.save(CKRecord(recordType: "Contact", recordID: CKRecord.ID(recordName: "doomed", zoneID: zoneID)))
            let (_, _, token, _) = try await laptop.recordZoneChanges(inZoneWith: zoneID, since: nil)
            try await phone.deleteRecord(withID: doomed.recordID)

            let changes = try await laptop.recordZoneChanges(inZoneWith: zoneID, since: token)
            #expect(changes.deletions.map(\.recordType) == ["Contact"])

            let operation = CKFetchRecordZoneChangesOperation(
                recordZoneIDs: [zoneID], configurationsByRecordZoneID: [zoneID: .init(previousServerChangeToken: token)]
            )
            let deleted = Locked<[String]>([])
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                operation.recordWithIDWasDeletedBlock = { _, type in deleted.update { $0.append(type) } }
                operation.fetchRecordZoneChangesResultBlock = { _ in done.resume() }
                laptop.add(operation)
            }
            #expect(deleted.value == ["Contact"])

            let ckws = try WebServicesClient(server, account: "alice")
            let feed = try await ckws.post("changes/zone", ["zones": [["zoneID": ["zoneName": "Deletions"]]]])
            let records = (feed["zones"] as? [[String: Any]])?.first?["records"] as? [[String: Any]] ?? []
            let tombstone = records.first { $0["deleted"] as? Bool == true } ?? [:]
            #expect(Set(tombstone.keys) == ["recordName", "deleted", "zoneID"], "\(tombstone)")
        }
    }
}
