import CloudKit
import Testing

/// An engine as apps rely on it from launch: it reports the account by itself before any sync,
/// sends what a restored state holds pending, keeps a later zone's changes when that zone's
/// request fails, reports the app's own removals, and keeps a change's first place in the list.
@Suite struct SyncEngineLaunchTests {
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    @Test func aNewEngineReportsTheSignInBeforeAnySync() async throws {
        try await DevServer.with { server in
            let device = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: Self.zoneID)
            await device.start()
            #expect(await eventually { await !device.accountChanges.isEmpty })
            let milestones = await device.milestones
            #expect(milestones == ["accountChange signIn"], "the sign-in alone, no sync: \(milestones)")
        }
    }

    @Test func pendingChangesRestoredFromAStateAreSentByAnAutomaticEngine() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let first = NoteDevice(db, zoneID: Self.zoneID)
            await first.write("settled", "sent before quitting")
            try await first.send()
            await first.write("offline", "typed offline")
            let offline = CKSyncEngine.PendingRecordZoneChange.saveRecord(CKRecord.ID(recordName: "offline", zoneID: Self.zoneID))
            let persisted = await eventually {
                let serialization = await first.stateSerialization
                return await Self.restoredPending(db, serialization) == [offline]
            }
            #expect(persisted, "the stateUpdate after the write holds it pending")
            let saved = await first.stateSerialization

            let relaunched = NoteDevice(db, zoneID: Self.zoneID, state: saved, automaticallySync: true)
            await relaunched.remember("offline", "typed offline")
            await relaunched.start()
            let landed = await eventually { await Self.text(of: "offline", in: db) == "typed offline" }
            #expect(landed, "sent without another edit")
            let reasons = await relaunched.sendReasons
            #expect(!reasons.contains(.manual), "\(reasons)")
        }
    }

    @Test func aRequestFailingInALaterZoneKeepsThatZonesChangesPending() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let (a, b) = (CKRecordZone.ID(zoneName: "FaultA"), CKRecordZone.ID(zoneName: "FaultB"))
            let device = NoteDevice(db, zoneID: a)
            await device.write("fa", "in A")
            await device.write("fb", "in B", in: b)
            try await device.send()
            #expect(try await server.stratus([
                "faults", "add", "--container", server.containerIdentifier, "--environment", "development", "--endpoint", "records/modify",
                "--zone", "FaultB", "--error", "AUTHENTICATION_FAILED", "--count", "1",
            ]) == 0)
            await device.write("fa", "in A, edited")
            await device.write("fb", "in B, edited", in: b)
            try? await device.send()
            let pending = await device.engine.state.pendingRecordZoneChanges
            #expect(pending == [.saveRecord(CKRecord.ID(recordName: "fb", zoneID: b))], "zone B's change stays pending: \(pending)")
            try await device.send()
            #expect(try await db.record(for: CKRecord.ID(recordName: "fb", zoneID: b))["text"] as? String == "in B, edited")
            #expect(await device.engine.state.pendingRecordZoneChanges.isEmpty)
        }
    }

    @Test func theAppsOwnRemovalIsAStateUpdateAndAnAddedChangeKeepsItsPlace() async throws {
        try await DevServer.with { server in
            let device = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: Self.zoneID)
            let engine = await device.engine
            let (a, b) = (CKRecord.ID(recordName: "a", zoneID: Self.zoneID), CKRecord.ID(recordName: "b", zoneID: Self.zoneID))
            engine.state.add(pendingRecordZoneChanges: [.saveRecord(a), .saveRecord(b), .saveRecord(a)])
            #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(a), .saveRecord(b)])
            engine.state.add(pendingRecordZoneChanges: [.deleteRecord(a)])
            #expect(engine.state.pendingRecordZoneChanges == [.deleteRecord(a), .saveRecord(b)])

            let db = engine.database
            let added = await eventually {
                let serialization = await device.stateSerialization
                return await Self.restoredPending(db, serialization) == [.deleteRecord(a), .saveRecord(b)]
            }
            #expect(added)
            engine.state.remove(pendingRecordZoneChanges: [.deleteRecord(a)])
            let reported = await eventually {
                let serialization = await device.stateSerialization
                return await Self.restoredPending(db, serialization) == [.saveRecord(b)]
            }
            #expect(reported, "the removal came in a stateUpdate")
            #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(b)])
        }
    }

    /// The text the server holds for a note, if any.
    static func text(of name: String, in db: CKDatabase) async -> String? {
        (try? await db.record(for: CKRecord.ID(recordName: name, zoneID: zoneID)))?["text"] as? String
    }

    /// The pending changes an app relaunched from `serialization` finds (an engine made from it).
    static func restoredPending(_ db: CKDatabase, _ serialization: CKSyncEngine.State.Serialization?) async -> [CKSyncEngine.PendingRecordZoneChange] {
        guard let serialization else { return [] }
        let delegate = NoteDevice(db, zoneID: zoneID)
        var configuration = CKSyncEngine.Configuration(database: db, stateSerialization: serialization, delegate: delegate)
        configuration.automaticallySync = false
        return CKSyncEngine(configuration).state.pendingRecordZoneChanges
    }
}
