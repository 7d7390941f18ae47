import CloudKit
import Testing

/// A record archived before its asset was uploaded (an app's outbox) keeps the asset and its
/// file; saving the unarchived copy uploads it, and another device downloads the same bytes.
@Suite struct AssetArchiveTests {
    @Test func aRecordArchivedBeforeItsAssetUploadedSavesIt() async throws {
        try await DevServer.with { server in
            let phone = try server.container("alice").privateCloudDatabase
            let laptop = try server.container("alice").privateCloudDatabase
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).bin")
            let bytes = Data((0..<4096).map { UInt8($0 % 251) })
            try bytes.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let record = CKRecord(recordType: "Photo", recordID: CKRecord.ID(recordName: "outbox"))
            record["image"] = CKAsset(fileURL: file)
            let data = try NSKeyedArchiver.archivedData(withRootObject: record, requiringSecureCoding: true)
            let outbox = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKRecord.self, from: data))
            #expect(outbox.changedKeys() == ["image"])
            _ = try await phone.save(outbox)
            let back = try await laptop.record(for: record.recordID)
            let url = try #require((back["image"] as? CKAsset)?.fileURL)
            #expect(try Data(contentsOf: url) == bytes)
        }
    }
}
