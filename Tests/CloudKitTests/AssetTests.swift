import CloudKit
import Foundation
import Testing

/// `CKAsset(fileURL:)`: saving the record uploads the file; a fetched record's asset is a local
/// file with the same bytes; saving a fetched record again with another field changed leaves
/// the asset as it is, without uploading it again.
@Suite struct AssetTests {
    @Test func anAssetSavedFromAFileComesBackAsALocalFileWithTheSameBytes() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let bytes = randomBytes(200_000)
            let file = try temporaryFile(holding: bytes)
            let record = CKRecord(recordType: "Photo", recordID: CKRecord.ID(recordName: "tram"))
            record["caption"] = "Tram 28"
            record["image"] = CKAsset(fileURL: file)
            _ = try await db.save(record)
            // From here the bytes can only come from the server.
            try FileManager.default.removeItem(at: file)

            let fetched = try await db.record(for: record.recordID)
            let asset = try #require(fetched["image"] as? CKAsset)
            let local = try #require(asset.fileURL)
            #expect(local.isFileURL)
            #expect(try Data(contentsOf: local) == bytes)
        }
    }

    @Test func savingAFetchedRecordWithAnotherFieldChangedKeepsTheAssetWithoutUploadingAgain() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let bytes = randomBytes(120_000)
            let file = try temporaryFile(holding: bytes)
            defer { try? FileManager.default.removeItem(at: file) }
            let record = CKRecord(recordType: "Photo", recordID: CKRecord.ID(recordName: "castle"))
            record["caption"] = "Castle"
            record["image"] = CKAsset(fileURL: file)
            _ = try await db.save(record)
            let uploads = try uploadRequests(of: server)
            #expect(uploads > 0, "the server's access log shows the first save's upload")

            let fetched = try await db.record(for: record.recordID)
            let local = try #require((fetched["image"] as? CKAsset)?.fileURL)
            // A save that uploaded the asset again would have to read this file.
            try FileManager.default.removeItem(at: local)
            fetched["caption"] = "Castle at dusk"
            let saved = try await db.save(fetched)
            #expect(saved["caption"] as? String == "Castle at dusk")
            #expect(saved["image"] is CKAsset, "the saved record still has its asset")
            #expect(try uploadRequests(of: server) == uploads, "no upload for an unchanged asset")

            let again = try await db.record(for: record.recordID)
            #expect(again["caption"] as? String == "Castle at dusk")
            let kept = try #require((again["image"] as? CKAsset)?.fileURL)
            #expect(try Data(contentsOf: kept) == bytes)
        }
    }

    @Test func anAssetForAZoneThatIsGoneFailsItsRecordAloneAndTheOtherZoneSaves() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let file = try temporaryFile(holding: randomBytes(10_000))
            defer { try? FileManager.default.removeItem(at: file) }
            let lost = CKRecord(recordType: "Photo", recordID: CKRecord.ID(recordName: "lost", zoneID: CKRecordZone.ID(zoneName: "Gone")))
            lost["image"] = CKAsset(fileURL: file)
            let kept = CKRecord(recordType: "Photo", recordID: CKRecord.ID(recordName: "kept"))
            kept["caption"] = "Tram 28"
            // The upload is refused for its zone: CloudKit reports that with the record, not as
            // the whole modify's failure.
            let (saved, _) = try await db.modifyRecords(saving: [lost, kept], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
            let refusal = try #require(saved[lost.recordID])
            #expect(throws: CKError.self) { try refusal.get() }
            if case .failure(let error as CKError) = refusal { #expect(error.code == .zoneNotFound) }
            #expect(try saved[kept.recordID]?.get()["caption"] as? String == "Tram 28")
        }
    }
}

/// Random bytes, so no other test's download of the same checksum is already in the asset cache.
private func randomBytes(_ count: Int) -> Data {
    var generator = SystemRandomNumberGenerator()
    return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
}

private func temporaryFile(holding bytes: Data) throws -> URL {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ck-asset-\(UUID().uuidString).bin")
    try bytes.write(to: file)
    return file
}

/// How many asset upload requests (`assets/upload`, and the POST of the bytes) the server's access
/// log holds: the dev server logs one line per request, naming its route, at info level.
private func uploadRequests(of server: DevServer) throws -> Int {
    let log = try String(contentsOf: server.log, encoding: .utf8)
    return log.split(separator: "\n").filter { $0.contains("assets/upload") }.count
}
