import CloudKit
import Foundation
import Testing

/// `self CONTAINS 'word'`: CloudKit's tokenized search over every searchable string field of a
/// record, matching records that hold the word (case-insensitively, as whole tokens).
/// The module sends it as a `CONTAINS_ANY_TOKENS` filter naming no field, which the server
/// answers over every STRING field.
@Suite struct TokenSearchTests {
    @Test func selfContainsAWordFindsRecordsHoldingItInAnyStringField() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Notes")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let rows: [(String, String, String)] = [
                ("n1", "Tram 28 to the castle", "crowded"),
                ("n2", "Ferry across the Tagus", "a tram ride first"),
                ("n3", "Port wine cellars", "closed on Mondays"),
            ]
            for (name, caption, body) in rows {
                let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
                record["caption"] = caption
                record["body"] = body
                _ = try await db.save(record)
            }

            let query = CKQuery(recordType: "Note", predicate: NSPredicate(format: "self CONTAINS 'tram'"))
            let page = try await db.records(matching: query, inZoneWith: zoneID)
            let names = Set(try page.matchResults.map { try $0.1.get().recordID.recordName })
            // n1 holds "Tram" in its caption (case-insensitive), n2 "tram" in its body, n3 neither.
            #expect(names == ["n1", "n2"])
            let both = CKQuery(recordType: "Note", predicate: NSPredicate(format: "self CONTAINS 'tram' AND self CONTAINS 'castle'"))
            let narrowed = try await db.records(matching: both, inZoneWith: zoneID)
            #expect(try narrowed.matchResults.map { try $0.1.get().recordID.recordName } == ["n1"])
        }
    }
}
