import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// The scripted database the engine tests sync with, on its own: it answers as CloudKit does
/// (change tags, missing zones, atomic zones, paged feeds, expired tokens, pushes), so what the
/// engine tests show holds against the real thing.
@Suite(.timeLimit(.minutes(1))) struct ScriptedSyncDatabaseTests {
    @Test func aSaveWithAStaleChangeTagConflictsWithTheServersRecord() async throws {
        let fake = ScriptedSyncDatabase()
        let saved = fake.serverSave(note("plan", "draft"))
        let edit = try #require(saved.copy() as? CKRecord)
        edit["text"] = "edited"
        let first = try await fake.modifyRecords(saving: [edit], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
        let taken = try #require(try first.saveResults[edit.recordID]?.get())
        #expect(taken.recordChangeTag != nil && taken.recordChangeTag != saved.recordChangeTag)

        // The same edit again still carries the tag the server had before: refused, with its record.
        let second = try await fake.modifyRecords(saving: [edit], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
        let error = try #require(throws: CKError.self) { try second.saveResults[edit.recordID]?.get() }
        #expect(error.code == .serverRecordChanged)
        #expect(error.serverRecord?.recordChangeTag == taken.recordChangeTag)
        #expect(error.serverRecord?["text"] as? String == "edited")
        #expect(error.clientRecord === edit)

        // `allKeys` overwrites whatever the server has.
        let forced = try await fake.modifyRecords(saving: [edit], deleting: [], savePolicy: .allKeys, atomically: false)
        #expect((try? forced.saveResults[edit.recordID]?.get()) != nil)
    }

    @Test func anAtomicZoneTakesAllOrNothingAndAMissingZoneRefusesItsRecords() async throws {
        let fake = ScriptedSyncDatabase()
        fake.serverSaveZone(notesZone)
        fake.failRecord(named: "b", with: CKError(.invalidArguments, "refused"))
        let lost = note("lost", in: CKRecordZone.ID(zoneName: "Nowhere"))
        let results = try await fake.modifyRecords(
            saving: [note("a"), note("b"), lost], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true
        )
        let codes = results.saveResults.compactMapValues { result -> CKError.Code? in
            guard case .failure(let error) = result else { return nil }
            return (error as? CKError)?.code
        }
        #expect(codes[CKRecord.ID(recordName: "a", zoneID: notesZone)] == .batchRequestFailed)
        #expect(codes[CKRecord.ID(recordName: "b", zoneID: notesZone)] == .invalidArguments)
        #expect(codes[lost.recordID] == .zoneNotFound)
        #expect(fake.records(in: notesZone).isEmpty)
        #expect(fake.requests == [.modifyRecords(saving: ["a", "b", "lost"], deleting: [], atomically: true)])
    }

    @Test func feedsArePagedAndTheirTokensExpire() async throws {
        let fake = ScriptedSyncDatabase()
        for index in 0..<3 { fake.serverSave(note("n\(index)")) }
        let first = try await fake.recordZoneChanges(inZoneWith: notesZone, since: nil, resultsLimit: 2)
        #expect(first.modificationResultsByID.count == 2 && first.moreComing)
        let rest = try await fake.recordZoneChanges(inZoneWith: notesZone, since: first.changeToken, resultsLimit: 2)
        #expect(rest.modificationResultsByID.count == 1 && !rest.moreComing)

        fake.serverDelete(CKRecord.ID(recordName: "n0", zoneID: notesZone))
        let deleted = try await fake.recordZoneChanges(inZoneWith: notesZone, since: rest.changeToken, resultsLimit: nil)
        #expect(deleted.deletions.map(\.recordID.recordName) == ["n0"])
        #expect(deleted.modificationResultsByID.isEmpty)

        fake.expireToken(of: notesZone)
        let expired = await #expect(throws: CKError.self) {
            try await fake.recordZoneChanges(inZoneWith: notesZone, since: deleted.changeToken, resultsLimit: nil)
        }
        #expect(expired?.code == .changeTokenExpired)

        let database = try await fake.databaseChanges(since: nil)
        #expect(database.modifications.map(\.zoneID) == [notesZone], "the default zone is not in the feed")
        fake.serverDeleteZone(notesZone, reason: .purged)
        let after = try await fake.databaseChanges(since: database.changeToken)
        #expect(after.deletions.map(\.reason) == [.purged])
        #expect(after.modifications.isEmpty)
        let gone = await #expect(throws: CKError.self) { try await fake.recordZoneChanges(inZoneWith: notesZone, since: nil, resultsLimit: nil) }
        #expect(gone?.code == .userDeletedZone)

        fake.expireDatabaseToken()
        let old = await #expect(throws: CKError.self) { try await fake.databaseChanges(since: after.changeToken) }
        #expect(old?.code == .changeTokenExpired)
    }

    @Test func scriptedFailuresComeFirstAndEveryCallIsRecorded() async throws {
        let fake = ScriptedSyncDatabase()
        fake.failNext(.userRecordID, with: CKError(.networkFailure, "offline"), times: 2)
        for _ in 0..<2 {
            let error = await #expect(throws: CKError.self) { try await fake.userRecordID() }
            #expect(error?.code == .networkFailure)
        }
        #expect(try await fake.userRecordID().recordName == "_alice")
        fake.user = nil
        let error = await #expect(throws: CKError.self) { try await fake.userRecordID() }
        #expect(error?.code == .notAuthenticated)
        #expect(fake.requests == [ScriptedSyncDatabase.Request](repeating: .userRecordID, count: 4))
        #expect(CKError.scripted(.zoneBusy, retryAfter: 3).retryAfterSeconds == 3)
    }

    @Test func aPushReachesEveryListenerUntilItStops() async throws {
        let fake = ScriptedSyncDatabase()
        let (heard, hear) = AsyncStream.makeStream(of: Void.self)
        let listener = Task {
            await fake.listenForPushes(clock: ManualSyncClock().clock, while: { true }, pushed: { _ = hear.yield(()) })
        }
        await fake.waitForListeners()
        fake.push()
        var pushes = heard.makeAsyncIterator()
        let first: Void? = await pushes.next()
        #expect(first != nil)

        listener.cancel()
        await listener.value
        #expect(fake.listenerCount == 0)
    }
}
