import Foundation
import StratusKit
import StratusModel
import Testing

/// The client module's pieces without a server: the local store's merge, history and naming.
@Suite("StratusKit without a server")
struct StratusKitTests {
    static func temporaryStore(naming: RecordNaming = .plain) throws -> LocalStore {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stratuskit-\(UUID().uuidString).sqlite").path
        return try LocalStore(path: path, naming: naming)
    }

    static let zone = ZoneID(zoneName: "Journal", ownerRecordName: "_alice")

    @Test("an import keeps fields changed locally and not yet exported; the rest take the server's values")
    func fieldLevelMerge() throws {
        let store = try StratusKitTests.temporaryStore()
        let key = RecordKey(scope: .private, zoneID: StratusKitTests.zone, recordName: "lisbon")
        try store.save(LocalRecord(key: key, recordType: "Destination", fields: ["caption": .string("Lisboa")]))
        var server = Record(recordName: "lisbon", recordType: "Destination", recordChangeTag: "7", fields: [
            "caption": .string("Lisbon"), "details": .string("Trams"),
        ])
        server.zoneID = StratusKitTests.zone
        try store.importRecord(server, scope: .private)
        let merged = try #require(try store.record(key))
        #expect(merged.fields["caption"]?.value == .string("Lisboa"))
        #expect(merged.fields["details"]?.value == .string("Trams"))
        #expect(merged.changeTag == "7")
        #expect(try store.pendingExports(in: .private).map(\.key) == [key])
        #expect(try store.uploadOperation(for: key)?.operationType == .update)

        // Once exported, the next import takes every field from the server.
        try store.markExported(key, through: .max)
        server.fields?["caption"] = .string("Lisbon, Portugal")
        try store.importRecord(server, scope: .private)
        #expect(try store.record(key)?.fields["caption"]?.value == .string("Lisbon, Portugal"))
        #expect(try store.pendingExports(in: .private).isEmpty)
    }

    @Test("a server deletion answers the device's own unsent deletion of that record: nothing is left to send")
    func importedDeletionAnswersAnUnsentDeletion() throws {
        let store = try StratusKitTests.temporaryStore()
        let key = RecordKey(scope: .private, zoneID: StratusKitTests.zone, recordName: "porto")
        var server = Record(recordName: "porto", recordType: "Destination", recordChangeTag: "3", fields: ["caption": .string("Porto")])
        server.zoneID = StratusKitTests.zone
        try store.importRecord(server, scope: .private)
        try store.delete(key)
        #expect(try store.pendingExports(in: .private).map(\.kind) == [.delete])
        try store.importDeletion(key)
        #expect(try store.pendingExports(in: .private).isEmpty)
    }

    @Test("a re-upload after a reset yields to the server's record; an edit of the user's still wins its fields")
    func reuploadYieldsToTheServersCopy() throws {
        let store = try StratusKitTests.temporaryStore()
        let key = RecordKey(scope: .private, zoneID: StratusKitTests.zone, recordName: "one")
        var server = Record(recordName: "one", recordType: "Destination", recordChangeTag: "1", fields: ["caption": .string("one")])
        server.zoneID = StratusKitTests.zone
        try store.importRecord(server, scope: .private)
        #expect(try store.requeueZone(StratusKitTests.zone, scope: .private) == 1)
        server.recordChangeTag = "9"
        server.fields?["caption"] = .string("one-edited")
        try store.importRecord(server, scope: .private)
        #expect(try store.record(key)?.fields["caption"]?.value == .string("one-edited"))
        #expect(try store.pendingExports(in: .private).isEmpty)

        try store.requeueZone(StratusKitTests.zone, scope: .private)
        try store.save(LocalRecord(key: key, recordType: "Destination", fields: ["caption": .string("mine")]))
        try store.importRecord(server, scope: .private)
        #expect(try store.record(key)?.fields["caption"]?.value == .string("mine"))
        #expect(try store.pendingExports(in: .private).map(\.key) == [key])
    }

    @Test("history records each change with its author; imports and widget writes are told apart")
    func historyAuthors() throws {
        let store = try StratusKitTests.temporaryStore()
        let key = RecordKey(scope: .private, zoneID: StratusKitTests.zone, recordName: "a")
        try store.save(LocalRecord(key: key, recordType: "Destination", fields: ["caption": .string("A")]))
        try store.save(LocalRecord(key: key, recordType: "Destination", fields: ["details": .string("from the widget")]), author: .widget)
        try store.delete(key)
        let history = try store.history()
        #expect(history.map(\.author) == [.app, .widget, .app])
        #expect(history.map(\.kind) == [.save, .save, .delete])
        #expect(history[1].changedFields == ["details"])
        #expect(try store.pendingExports(in: .private).map(\.kind) == [.delete])
    }

    @Test("Core Data naming: CD_ before record types and fields on the server, a CD_entityName field, plain names locally")
    func coreDataNaming() throws {
        let store = try StratusKitTests.temporaryStore(naming: .coreData)
        let key = RecordKey(scope: .private, zoneID: StratusKitTests.zone, recordName: "a")
        try store.save(LocalRecord(key: key, recordType: "Destination", fields: ["caption": .string("A")]))
        let upload = try #require(try store.uploadOperation(for: key))
        #expect(upload.operationType == .create)
        #expect(upload.record.recordType == "CD_Destination")
        #expect(upload.record.fields?.keys.sorted() == ["CD_caption", "CD_entityName"])
        #expect(upload.record.fields?["CD_entityName"] == Field.string("Destination"), "the concrete entity, as a STRING")
        var server = upload.record
        server.zoneID = StratusKitTests.zone
        server.recordChangeTag = "1"
        // Another client's sub-entity: the record type names the root entity, CD_entityName the concrete one.
        server.fields?["CD_entityName"] = Field.string("Museum")
        try store.markExported(key, through: .max)
        try store.importRecord(server, scope: .private)
        let local = try #require(try store.record(key))
        #expect(local.recordType == "Destination")
        #expect(local.fields.keys.sorted() == ["caption"], "CD_entityName is bookkeeping, not an attribute")
        #expect(try store.uploadOperation(for: key)?.record.fields?["CD_entityName"] == Field.string("Museum"), "the concrete entity is kept")
        // Plain naming adds nothing.
        let plain = try StratusKitTests.temporaryStore()
        try plain.save(LocalRecord(key: key, recordType: "Destination", fields: ["caption": .string("A")]))
        #expect(try plain.uploadOperation(for: key)?.record.fields?.keys.sorted() == ["caption"])
    }
}
