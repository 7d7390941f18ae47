import CloudKit
import Foundation
import Testing

/// The events of one fetch and of one send arrive one at a time in Apple's order — the account
/// before any sync — and every will… has its did…. `stateUpdate`s come wherever the state changed; the sequences compared
/// leave them out, and a separate check places the one after each page or batch.
@Suite struct SyncEngineEventOrderTests {
    @Test func aFetchDeliversItsEventsInApplesOrderWithSignInOnTheFirstFetchOnly() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            await phone.write("first", "one")
            await phone.write("second", "two")
            try await phone.send()

            try await tablet.fetch()
            #expect(await tablet.milestones == [
                "accountChange signIn", "willFetchChanges", "fetchedDatabaseChanges",
                "willFetchRecordZoneChanges Notes", "fetchedRecordZoneChanges", "didFetchRecordZoneChanges Notes",
                "didFetchChanges",
            ])
            let firstFetch = await tablet.events
            #expect(stateUpdate(in: firstFetch, after: "fetchedRecordZoneChanges", before: "didFetchRecordZoneChanges Notes"))
            #expect(unbalancedEvents(firstFetch) == nil)
            #expect(Set(await tablet.fetchedNames) == ["first", "second"])

            await phone.write("third", "three")
            try await phone.send()
            await tablet.resetLog()
            try await tablet.fetch()
            #expect(await tablet.milestones == [
                "willFetchChanges", "fetchedDatabaseChanges",
                "willFetchRecordZoneChanges Notes", "fetchedRecordZoneChanges", "didFetchRecordZoneChanges Notes",
                "didFetchChanges",
            ], "the same account again: no accountChange")
            #expect(await tablet.fetchedNames == ["third"])

            await tablet.resetLog()
            try await tablet.fetch()
            #expect(await tablet.milestones == ["willFetchChanges", "didFetchChanges"], "nothing changed: nothing fetched")
        }
    }

    /// Apple: the delegate's `nextFetchChangesOptions` is called "in between each server request"
    /// of a fetch, so a zone it leaves out of scope meanwhile is not fetched (and stays unfetched).
    @Test func theDelegateIsAskedForOptionsBeforeEachRequestOfAFetch() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let trips = CKRecordZone.ID(zoneName: "Trips")
            await phone.write("note", "in Notes")
            await phone.write("trip", "in Trips", in: trips)
            try await phone.send()

            await tablet.setFetchScope(.zoneIDs([notesZone]))
            try await tablet.fetch()
            // The database feed, then each zone's request (Trips is asked about, then left out).
            #expect(await tablet.fetchOptionsAsked >= 3)
            #expect(await tablet.fetchedNames == ["note"])
            #expect(await tablet.engine.state.zoneIDsWithUnfetchedServerChanges.contains(trips), "left out: still to fetch")

            await tablet.setFetchScope(nil)
            await tablet.resetLog()
            try await tablet.fetch()
            #expect(await tablet.fetchedNames == ["trip"])
        }
    }

    @Test func aSendDeliversItsEventsInApplesOrderWithZonesBeforeRecords() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            try await phone.fetch()
            #expect(await phone.milestones == ["accountChange signIn", "willFetchChanges", "didFetchChanges"], "an empty database")

            // The zone is new to the phone: it goes first, in sentDatabaseChanges.
            await phone.resetLog()
            await phone.write("first", "one")
            await phone.write("second", "two")
            #expect(await phone.engine.state.pendingDatabaseChanges.count == 1)
            try await phone.send()
            #expect(await phone.milestones == ["willSendChanges", "sentDatabaseChanges", "sentRecordZoneChanges", "didSendChanges"])
            let firstSend = await phone.events
            #expect(stateUpdate(in: firstSend, after: "sentRecordZoneChanges", before: "didSendChanges"))
            #expect(unbalancedEvents(firstSend) == nil)
            #expect(await phone.savedCount == 2)

            // The zone is known now: records only.
            await phone.resetLog()
            await phone.write("third", "three")
            #expect(await phone.engine.state.pendingDatabaseChanges.isEmpty)
            try await phone.send()
            #expect(await phone.milestones == ["willSendChanges", "sentRecordZoneChanges", "didSendChanges"])
            let secondSend = await phone.events
            #expect(stateUpdate(in: secondSend, after: "sentRecordZoneChanges", before: "didSendChanges"))
        }
    }

    @Test func aSendOfSeveralBatchesReportsEachBatchWithAStateUpdateBetweenOneWillAndOneDid() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            for index in 0..<450 { await phone.write("note-\(index)", "text \(index)") }
            try await phone.send()

            // A new engine learns its account (signIn) before its first send.
            let milestones = await phone.milestones.filter { !$0.hasPrefix("accountChange") }
            #expect(milestones.first == "willSendChanges" && milestones.last == "didSendChanges", "\(milestones.prefix(5))")
            #expect(milestones.filter { $0 == "willSendChanges" }.count == 1, "one send, however many batches")
            let batches = milestones.filter { $0 == "sentRecordZoneChanges" }.count
            #expect(batches >= 2, "450 changes do not fit one batch")
            // Every batch's report is followed by a stateUpdate before the next report or the end.
            let events = await phone.events
            var reports = events.indices.filter { events[$0] == "sentRecordZoneChanges" }
            reports.append(events.count)
            for (report, next) in zip(reports, reports.dropFirst()) {
                #expect(events[(report + 1)..<next].contains("stateUpdate"), "a stateUpdate after the batch reported at \(report)")
            }
            #expect(unbalancedEvents(events) == nil)
            #expect(await phone.savedCount == 450)
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")

/// Whether a `stateUpdate` comes between the first `after` and the first `before` that follows it.
private func stateUpdate(in events: [String], after: String, before: String) -> Bool {
    guard let start = events.firstIndex(of: after), let end = events[start...].firstIndex(of: before) else { return false }
    return events[start..<end].contains("stateUpdate")
}
