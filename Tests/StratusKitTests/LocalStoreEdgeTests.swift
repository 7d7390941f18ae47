import Foundation
import StratusKit
import StratusModel
import Testing

/// The local store at the edges the fuzzer's `--edges` drives, without a server: a field the app
/// clears stays cleared until sent, and an asset whose file is gone is dropped back to the server's.
@Suite("StratusKit: cleared fields and missing asset files")
struct LocalStoreEdgeTests {
    static let zone = ZoneID(zoneName: "Journal", ownerRecordName: "_alice")

    static func serverCopy(_ name: String, tag: String, fields: [String: Field]) -> Record {
        var server = Record(recordName: name, recordType: "Destination", recordChangeTag: tag, fields: fields)
        server.zoneID = zone
        return server
    }

    @Test("a cleared field is pending as a clear, stays cleared through an import, and is sent no more once exported")
    func clearedFieldStaysClearedUntilSent() throws {
        let store = try StratusKitTests.temporaryStore()
        let key = RecordKey(scope: .private, zoneID: Self.zone, recordName: "lisbon")
        try store.importRecord(Self.serverCopy("lisbon", tag: "1", fields: ["caption": .string("Lisbon"), "note": .string("trams")]), scope: .private)
        #expect(try store.pendingClearedFields(key).isEmpty)

        try store.clear(["note"], of: key)
        #expect(try store.record(key)?.fields["note"] == nil)
        #expect(try store.record(key)?.fields["caption"]?.value == .string("Lisbon"))
        #expect(try store.pendingExports(in: .private).map(\.key) == [key])
        #expect(try store.pendingClearedFields(key) == ["note"])

        // Another device's edit comes in: the clear, still unsent, keeps its field cleared.
        try store.importRecord(
            Self.serverCopy("lisbon", tag: "2", fields: ["caption": .string("Lisboa"), "note": .string("trams, 28")]), scope: .private
        )
        #expect(try store.record(key)?.fields["note"] == nil)
        #expect(try store.record(key)?.fields["caption"]?.value == .string("Lisboa"))
        #expect(try store.pendingClearedFields(key) == ["note"])

        try store.markExported(key, through: .max)
        #expect(try store.pendingClearedFields(key).isEmpty)
    }

    @Test("an asset whose file is gone goes back to the server's value, or away when the server has none")
    func missingAssetIsDropped() throws {
        let store = try StratusKitTests.temporaryStore()
        let held = try store.assets.add(Data("the server's photo".utf8))
        let key = RecordKey(scope: .private, zoneID: Self.zone, recordName: "porto")
        try store.importRecord(
            Self.serverCopy("porto", tag: "1", fields: ["caption": .string("Porto"), "photo": Field(.asset(held), type: .assetID)]), scope: .private
        )
        // A new photo, its file deleted before any send.
        let new = try store.assets.add(Data("a new photo".utf8))
        let checksum = try #require(new.fileChecksum)
        try FileManager.default.removeItem(at: store.assets.file(for: checksum))
        try store.save(LocalRecord(key: key, recordType: "Destination", fields: ["caption": .string("Porto!"), "photo": Field(.asset(new), type: .assetID)]))

        #expect(try store.dropMissingAssets(key) == ["photo"])
        #expect(try store.record(key)?.fields["photo"]?.value.assets.map(\.fileChecksum) == [held.fileChecksum])
        #expect(try store.record(key)?.fields["caption"]?.value == .string("Porto!"))
        #expect(try store.pendingExports(in: .private).map(\.key) == [key], "the rest of the change is still to be sent")
        #expect(try store.dropMissingAssets(key).isEmpty, "nothing more is missing")

        // A record the server never had: the photo goes.
        let fresh = RecordKey(scope: .private, zoneID: Self.zone, recordName: "braga")
        let gone = try store.assets.add(Data("another new photo".utf8))
        try FileManager.default.removeItem(at: store.assets.file(for: try #require(gone.fileChecksum)))
        try store.save(LocalRecord(key: fresh, recordType: "Destination", fields: ["caption": .string("Braga"), "photo": Field(.asset(gone), type: .assetID)]))
        #expect(try store.dropMissingAssets(fresh) == ["photo"])
        #expect(try store.record(fresh)?.fields["photo"] == nil)
        #expect(try store.record(fresh)?.fields["caption"]?.value == .string("Braga"))
    }
}
