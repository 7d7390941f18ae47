import Foundation
import StratusCloudKit
import StratusKit
import StratusModel
import Testing

/// The travel journal on alice's devices: mirroring off and on, concurrent edits, compaction,
/// a large import with a crash.
@Suite("Journal: one account, several devices")
struct JournalSyncTests {
    @Test("1. alice-iphone, sync off, creates 3 destinations; sync on: alice-ipad sees the 3")
    func offlineCreatesReachTheOtherDevice() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            try await iphone.setMirroring(false)
            for caption in ["Lisbon", "Porto", "Faro"] {
                try await iphone.save(await iphone.privateKey(caption.lowercased()), type: "Destination", fields: Journal.destination(caption))
            }
            try await iphone.sync()
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).isEmpty)
            try await iphone.setMirroring(true)
            try await iphone.sync()
            try await ipad.sync()
            let captions = try await ipad.records(in: .private).compactMap { $0.fields["caption"]?.value }
            #expect(Set(captions) == [.string("Lisbon"), .string("Porto"), .string("Faro")])
            // The engine's events come in CKSyncEngine's order: the account before any sync.
            let order = await ipad.events.filter { $0.scope == .private }.map(\.name)
            #expect(Array(order.prefix(6)) == [
                "accountChange", "willFetchChanges", "fetchedDatabaseChanges",
                "willFetchRecordZoneChanges", "fetchedRecordZoneChanges", "didFetchRecordZoneChanges",
            ])
            #expect(order.last == "didFetchChanges")
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("2. concurrent edits: different fields both kept; the same field, the later sync wins")
    func concurrentEdits() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            let key = await iphone.privateKey("lisbon")
            try await iphone.save(key, type: "Destination", fields: Journal.destination("Lisbon", details: "Trams"))
            try await iphone.sync()
            try await ipad.sync()

            try await iphone.save(key, type: "Destination", fields: ["caption": .string("Lisboa")])
            try await ipad.save(key, type: "Destination", fields: ["details": .string("Trams and tiles")])
            try await ipad.sync()
            try await iphone.sync()
            try await ipad.sync()
            for device in [iphone, ipad] {
                let record = try #require(try await device.store.record(key))
                #expect(record.fields["caption"]?.value == .string("Lisboa"))
                #expect(record.fields["details"]?.value == .string("Trams and tiles"))
            }

            // The same field on both: the device that syncs last wins, every time.
            try await iphone.save(key, type: "Destination", fields: ["caption": .string("from iphone")])
            try await ipad.save(key, type: "Destination", fields: ["caption": .string("from ipad")])
            try await iphone.sync()
            try await ipad.sync()
            try await iphone.sync()
            for device in [iphone, ipad] {
                #expect(try await device.store.record(key)?.fields["caption"]?.value == .string("from ipad"))
            }
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("7. five edits while mirroring is off all reach the server, in order")
    func editsWhileOffAreExportedInOrder() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            try await iphone.save(await iphone.privateKey("d0"), type: "Destination", fields: Journal.destination("Start"))
            try await iphone.sync()
            try await iphone.setMirroring(false)
            for index in 1...5 {
                try await iphone.save(await iphone.privateKey("d\(index)"), type: "Destination", fields: Journal.destination("Stop \(index)"))
            }
            try await iphone.sync()
            try await iphone.setMirroring(true)
            try await iphone.sync()
            // The server's change feed has them in the order they were made.
            let changed = try await journal.changeOrder(of: "alice", in: CKRecordZone.ID(zoneName: iphone.zoneName))
            #expect(changed == ["d0", "d1", "d2", "d3", "d4", "d5"])
            #expect(try await iphone.store.pendingExports(in: .private).isEmpty)
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("8. after the server compacts the zone, the next fetch refetches and ends identical")
    func expiredTokenRefetches() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            for name in ["a", "b", "c"] {
                try await iphone.save(await iphone.privateKey(name), type: "Destination", fields: Journal.destination(name))
            }
            try await iphone.sync()
            try await ipad.sync()
            try await iphone.delete(await iphone.privateKey("b"))
            try await iphone.save(await iphone.privateKey("d"), type: "Destination", fields: Journal.destination("d"))
            try await iphone.sync()
            try await journal.compact(zone: iphone.zoneName, owner: "alice")

            try await ipad.sync()
            let events = await ipad.events.map(\.name)
            #expect(events.contains("zoneChangeTokenExpired"))
            let names = try await ipad.records(in: .private).map(\.key.recordName)
            #expect(names == ["a", "c", "d"])
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("9. a 500-record import reaches another device in pages; a crash mid-way resumes without loss or duplicates")
    func largeImportWithCrash() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            for index in 0..<500 {
                try await iphone.save(await iphone.privateKey(String(format: "r%03d", index)), type: "Destination", fields: Journal.destination("Place \(index)"))
            }
            try await iphone.sync()
            #expect(try await iphone.store.pendingExports(in: .private).isEmpty)
            #expect(await iphone.events.filter { $0.name == "sentRecordZoneChanges" }.count >= 3)

            let ipad = try await journal.device("alice-ipad", signedInAs: "alice", resultsLimit: 100)
            await ipad.setCrashAfterFetchedPages(2)
            await #expect(throws: CKError.self) { try await ipad.sync() }
            #expect(try await ipad.records(in: .private).count == 200)

            // The device restarts from its store file and resumes where the saved state left it.
            let restarted = try await journal.device("alice-ipad", signedInAs: "alice", resultsLimit: 100)
            try await restarted.sync()
            // Each record was imported exactly once across the crash: 200 before, 300 after.
            let imports = try await restarted.store.history().filter { $0.author == .syncImport }
            #expect(imports.count == 500)
            #expect(Set(imports.map(\.key.recordName)).count == 500)
            let records = try await restarted.records(in: .private)
            #expect(records.count == 500)
            #expect(Set(records.map(\.key.recordName)).count == 500)
            try await journal.assertConsistent([(iphone, "alice"), (restarted, "alice")])
        }
    }
}
