import CloudKit
import Foundation
import Testing

/// The edges where a CKSyncEngine app could lose an edit, through the engine as apps write it:
/// a field cleared on a record rebuilt from its archived system fields reaches the server and
/// the other device without erasing the fields the app did not touch; one record whose asset
/// file is gone fails alone, its batch's other changes reach the server.
@Suite struct SyncEngineEditEdgeTests {
    @Test func aFieldClearedOnARecordRebuiltFromSystemFieldsReachesTheOtherDeviceAndNothingElseIsLost() async throws {
        try await DevServer.with { server in
            let zone = CKRecordZone.ID(zoneName: "Journal")
            let phone = EntryDevice(try server.container("alice").privateCloudDatabase, zoneID: zone)
            let laptop = EntryDevice(try server.container("alice").privateCloudDatabase, zoneID: zone)
            await phone.edit("lisbon", ["title": "Lisbon", "body": "tram 28", "mood": "sunny"])
            try await phone.send()
            try await laptop.fetch()
            #expect(await laptop.fields("lisbon") == ["title": "Lisbon", "body": "tram 28", "mood": "sunny"])

            // The phone's app keeps only the system fields; its one edit is a clear.
            await phone.edit("lisbon", ["mood": nil])
            try await phone.send()
            #expect(await phone.failures.isEmpty)
            try await laptop.fetch()
            #expect(await laptop.fields("lisbon") == ["title": "Lisbon", "body": "tram 28"])
        }
    }

    @Test func aRecordWhoseAssetFileIsGoneFailsAloneAndTheBatchsOtherChangesReachTheServer() async throws {
        try await DevServer.with { server in
            let zone = CKRecordZone.ID(zoneName: "Journal")
            let db = try server.container("alice").privateCloudDatabase
            let phone = EntryDevice(db, zoneID: zone)
            let gone = FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID().uuidString).jpg")
            await phone.edit("porto", ["title": "Porto"], photo: gone)
            for index in 0..<5 { await phone.edit("entry-\(index)", ["title": "entry \(index)"]) }
            let refused = await #expect(throws: CKError.self) { try await phone.send() }
            #expect(refused?.code == .partialFailure)

            #expect(await phone.failures == ["porto": .assetFileNotFound])
            let saved = try await db.records(for: (0..<5).map { CKRecord.ID(recordName: "entry-\($0)", zoneID: zone) })
            #expect(saved.values.allSatisfy { (try? $0.get()) != nil } && saved.count == 5)
        }
    }

    @Test func aRecordWhoseAssetTheServerLostIsSkippedAndTheRestOfItsZoneArrivesAndAdvances() async throws {
        try await DevServer.with { server in
            let zone = CKRecordZone.ID(zoneName: "Journal")
            let laptop = EntryDevice(try server.container("alice").privateCloudDatabase, zoneID: zone)
            let photo = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID().uuidString).jpg")
            // Bytes of this run alone: no asset cache of an earlier run holds them.
            try Data(String(repeating: UUID().uuidString, count: 100).utf8).write(to: photo)
            defer { try? FileManager.default.removeItem(at: photo) }
            await laptop.edit("plain", ["title": "Lisbon"])
            await laptop.edit("pictured", ["title": "Porto"], photo: photo)
            try await laptop.send()
            // The server's copy of the photo is gone (a disk restored from an old backup).
            let blobs = server.data.appendingPathComponent("blobs/sha256")
            let files = FileManager.default.enumerator(at: blobs, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            let removed = files.filter { !$0.hasDirectoryPath }.map { (try? FileManager.default.removeItem(at: $0)) != nil }
            #expect(!removed.isEmpty && removed.allSatisfy { $0 }, "the blob store held the photo under \(blobs.path)")

            let phone = EntryDevice(try server.container("alice").privateCloudDatabase, zoneID: zone)
            try await phone.fetch()
            #expect(await phone.fields("plain") == ["title": "Lisbon"], "the zone's other record arrived")
            #expect(await phone.fields("pictured") == nil)

            await laptop.edit("plain", ["title": "Lisbon, again"])
            try await laptop.send()
            try await phone.fetch()
            #expect(await phone.fields("plain") == ["title": "Lisbon, again"], "the zone's token advanced past the skipped record")
        }
    }
}

/// A device whose app keeps, per record, only the archived system fields and the edits not yet
/// sent (a field set, or cleared with `nil`) — Apple's CKSyncEngine sample's way — and the
/// fields the last fetch delivered.
actor EntryDevice: CKSyncEngineDelegate {
    let database: CKDatabase
    let zoneID: CKRecordZone.ID
    private var engineStorage: CKSyncEngine?
    private var systemFields: [String: Data] = [:]
    private var unsent: [String: [String: String?]] = [:]
    private var photos: [String: URL] = [:]
    private var fetched: [String: [String: String]] = [:]
    private var zoneSaved = false
    /// The code of each save the server refused, by record name.
    private(set) var failures: [String: CKError.Code] = [:]

    init(_ database: CKDatabase, zoneID: CKRecordZone.ID) {
        self.database = database
        self.zoneID = zoneID
    }

    var engine: CKSyncEngine {
        if let engineStorage { return engineStorage }
        var configuration = CKSyncEngine.Configuration(database: database, stateSerialization: nil, delegate: self)
        configuration.automaticallySync = false
        let engine = CKSyncEngine(configuration)
        engineStorage = engine
        return engine
    }

    func send() async throws { try await engine.sendChanges() }
    func fetch() async throws { try await engine.fetchChanges() }
    func fields(_ name: String) -> [String: String]? { fetched[name] }

    func edit(_ name: String, _ fields: [String: String?], photo: URL? = nil) {
        unsent[name, default: [:]].merge(fields) { _, new in new }
        if let photo { photos[name] = photo }
        if !zoneSaved {
            engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: zoneID))])
            zoneSaved = true
        }
        engine.state.add(pendingRecordZoneChanges: [.saveRecord(CKRecord.ID(recordName: name, zoneID: zoneID))])
    }

    private func record(_ id: CKRecord.ID) -> CKRecord? {
        guard let edits = unsent[id.recordName] else { return nil }
        let record = systemFields[id.recordName].flatMap(Self.unarchive) ?? CKRecord(recordType: "Entry", recordID: id)
        for (key, value) in edits { record[key] = value }
        if let photo = photos[id.recordName] { record["photo"] = CKAsset(fileURL: photo) }
        return record
    }

    private static func archive(_ record: CKRecord) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        record.encodeSystemFields(with: archiver)
        return archiver.encodedData
    }

    private static func unarchive(_ data: Data) -> CKRecord? {
        guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = true
        return CKRecord(coder: unarchiver)
    }

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        switch event {
        case .fetchedRecordZoneChanges(let changes):
            for modification in changes.modifications {
                let record = modification.record
                systemFields[record.recordID.recordName] = Self.archive(record)
                var values: [String: String] = [:]
                for key in record.allKeys() { values[key] = record[key] as? String }
                fetched[record.recordID.recordName] = values
            }
        case .sentRecordZoneChanges(let sent):
            for record in sent.savedRecords {
                systemFields[record.recordID.recordName] = Self.archive(record)
                unsent[record.recordID.recordName] = nil
            }
            for failure in sent.failedRecordSaves { failures[failure.record.recordID.recordName] = failure.error.code }
        default:
            break
        }
    }

    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.scope.contains($0) }
        var records: [CKRecord] = []
        for change in pending {
            if case .saveRecord(let id) = change, let record = record(id) { records.append(record) }
        }
        return records.isEmpty ? nil : CKSyncEngine.RecordZoneChangeBatch(recordsToSave: records)
    }
}
