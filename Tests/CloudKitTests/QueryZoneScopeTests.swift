import CloudKit
import Testing

/// A query that names no zone searches every zone of the database, page after page — through
/// `records(matching:)`, `CKQueryOperation` and its cursors — as on Apple's service.
@Suite struct QueryZoneScopeTests {
    @Test func aQueryWithoutAZoneSearchesEveryZone() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zones = ["North", "South"].map { CKRecordZone.ID(zoneName: $0) }
            _ = try await db.modifyRecordZones(saving: zones.map { CKRecordZone(zoneID: $0) }, deleting: [])
            var saved: [CKRecord] = []
            for (index, zoneID) in (zones + zones).enumerated() {
                let record = CKRecord(recordType: "Place", recordID: CKRecord.ID(recordName: "p\(index)", zoneID: zoneID))
                record["tag"] = "scope"
                saved.append(record)
            }
            saved.append(CKRecord(recordType: "Place", recordID: CKRecord.ID(recordName: "home")))
            saved.last?["tag"] = "scope"
            _ = try await db.modifyRecords(saving: saved, deleting: [], atomically: false)

            let query = CKQuery(recordType: "Place", predicate: NSPredicate(format: "tag == %@", "scope"))
            let (all, _) = try await db.records(matching: query)
            #expect(Set(all.map(\.0)) == Set(saved.map(\.recordID)))
            let (north, _) = try await db.records(matching: query, inZoneWith: zones[0])
            #expect(north.count == 2)

            // An operation without a zone, a page at a time, follows its cursor across zones.
            var found: [CKRecord.ID] = []
            var cursor: CKQueryOperation.Cursor?
            repeat {
                let operation = cursor.map { CKQueryOperation(cursor: $0) } ?? CKQueryOperation(query: query)
                operation.resultsLimit = 2
                let page = Locked<[CKRecord.ID]>([])
                let next = Locked<CKQueryOperation.Cursor?>(nil)
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    operation.recordMatchedBlock = { id, _ in page.update { $0.append(id) } }
                    operation.queryResultBlock = { result in
                        next.update { $0 = try? result.get() }
                        done.resume()
                    }
                    db.add(operation)
                }
                found += page.value
                cursor = next.value
            } while cursor != nil && found.count < 20
            #expect(Set(found) == Set(saved.map(\.recordID)) && found.count == saved.count)

            // Apple's system field keys name system fields in sort descriptors.
            let newestFirst = CKQuery(recordType: "Place", predicate: NSPredicate(format: "tag == %@", "scope"))
            newestFirst.sortDescriptors = [NSSortDescriptor(key: CKRecord.SystemFieldKey.creationDate, ascending: false)]
            let (sorted, _) = try await db.records(matching: newestFirst, inZoneWith: zones[0])
            #expect(sorted.count == 2)
        }
    }
}
