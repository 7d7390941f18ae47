import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// What a fetch brings, with no server: the database feed, then each changed zone page by page,
/// in Apple's order of events; zones gone and tokens expired handled by the engine itself.
@Suite(.timeLimit(.minutes(1))) struct EngineFetchTests {
    @Test func aFetchDeliversDatabaseChangesThenZoneChangesInApplesOrder() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("first", "one"))
        harness.fake.serverSave(note("second", "two"))
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()

        #expect(harness.milestones == [
            "accountChange signIn", "willFetchChanges", "fetchedDatabaseChanges",
            "willFetchRecordZoneChanges Notes", "fetchedRecordZoneChanges", "didFetchRecordZoneChanges Notes",
            "didFetchChanges",
        ])
        let labels = harness.labels
        let page = try #require(labels.firstIndex(of: "fetchedRecordZoneChanges"))
        let done = try #require(labels.firstIndex(of: "didFetchRecordZoneChanges Notes"))
        #expect(labels[page..<done].contains("stateUpdate"), "the zone's token is saved after its page")
        #expect(harness.fetchedNames == ["first", "second"])
        #expect(harness.text(of: "second") == "two")
        #expect(harness.fake.requests.filter { $0 != .userRecordID } == [
            .saveSubscription("CKSyncEngine-private"), .databaseChanges(token: nil), .recordZoneChanges(zone: "Notes", token: nil),
        ])

        harness.resetLog()
        try await engine.fetchChanges()
        #expect(harness.milestones == ["willFetchChanges", "didFetchChanges"], "nothing changed: no zone fetched, no account change")
    }

    @Test func zoneChangesComePageByPageUpToTheResultsLimit() async throws {
        let harness = EngineHarness()
        let names = (0..<5).map { "note-\($0)" }
        for name in names { harness.fake.serverSave(note(name)) }
        let engine = CKSyncEngine(harness.configuration(resultsLimit: 2))
        try await engine.fetchChanges()

        #expect(harness.labels.filter { $0 == "fetchedRecordZoneChanges" }.count == 3)
        #expect(hadTokens(harness.fake.requests(of: .recordZoneChanges)) == [false, true, true])
        #expect(harness.fetchedNames.sorted() == names, "each once")
        #expect(engine.state.zoneIDsWithUnfetchedServerChanges.isEmpty)
    }

    @Test func theDatabaseFeedIsReadPageByPage() async throws {
        let harness = EngineHarness()
        let zones = ["A", "B", "C"].map { CKRecordZone.ID(zoneName: $0) }
        for zone in zones { harness.fake.serverSave(note("in-\(zone.zoneName)", in: zone)) }
        harness.fake.databaseResultsLimit = 1
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()

        #expect(hadTokens(harness.fake.requests(of: .databaseChanges)) == [false, true, true])
        #expect(harness.milestones.filter { $0.hasPrefix("willFetchRecordZoneChanges") } == [
            "willFetchRecordZoneChanges A", "willFetchRecordZoneChanges B", "willFetchRecordZoneChanges C",
        ])
        #expect(harness.fetchedNames == ["in-A", "in-B", "in-C"])
    }

    @Test func zonesDeletedOnTheServerAreReportedWithWhy() async throws {
        let harness = EngineHarness()
        let (deleted, purged, reset) = (CKRecordZone.ID(zoneName: "Deleted"), CKRecordZone.ID(zoneName: "Purged"), CKRecordZone.ID(zoneName: "Reset"))
        for zone in [deleted, purged, reset] { harness.fake.serverSave(note("in-\(zone.zoneName)", in: zone)) }
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()
        #expect(engine.state.serialization.zoneTokens.count == 3)

        harness.fake.serverDeleteZone(deleted, reason: .deleted)
        harness.fake.serverDeleteZone(purged, reason: .purged)
        harness.fake.serverDeleteZone(reset, reason: .encryptedDataReset)
        harness.resetLog()
        try await engine.fetchChanges()

        #expect(harness.zoneDeletions == ["Deleted": .deleted, "Purged": .purged, "Reset": .encryptedDataReset])
        #expect(!harness.milestones.contains { $0.hasPrefix("willFetchRecordZoneChanges") })
        #expect(engine.state.serialization.zoneTokens.isEmpty, "a deleted zone's token is forgotten")
    }

    /// A zone the feed named is gone when its changes are fetched: reported as the feed would
    /// have, with why, and the fetch goes on.
    @Test(arguments: [
        ZoneGone(error: CKError(.userDeletedZone, "the user deleted the zone"), reason: .purged),
        ZoneGone(error: CKError(.zoneNotFound, "no such zone"), reason: .deleted),
        ZoneGone(
            error: CKError(.zoneNotFound, userInfo: [NSLocalizedDescriptionKey: "reset", CKErrorUserDidResetEncryptedDataKey: true]),
            reason: .encryptedDataReset
        ),
    ])
    func aZoneGoneWhenItsChangesAreFetchedIsReportedAsADeletion(gone: ZoneGone) async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("inside"))
        harness.fake.failNext(.recordZoneChanges, with: gone.error)
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()

        #expect(harness.zoneDeletions == ["Notes": gone.reason])
        #expect(harness.zoneFetchErrors == [gone.error.code])
        #expect(harness.milestones == [
            "accountChange signIn", "willFetchChanges", "fetchedDatabaseChanges",
            "willFetchRecordZoneChanges Notes", "fetchedDatabaseChanges", "didFetchRecordZoneChanges Notes",
            "didFetchChanges",
        ])
        #expect(engine.state.zoneIDsWithUnfetchedServerChanges.isEmpty)
    }

    /// The server dropped a zone's history: the engine forgets the token and fetches the zone
    /// from the start, by itself — a record it had comes again, and nothing is reported failed.
    @Test func anExpiredZoneTokenFetchesTheZoneAgainFromTheStart() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("first"))
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()
        harness.fake.serverSave(note("later"))
        harness.fake.expireToken(of: notesZone)
        harness.resetLog()
        try await engine.fetchChanges()

        #expect(hadTokens(harness.fake.requests(of: .recordZoneChanges)) == [false, true, false])
        #expect(harness.fetchedNames == ["first", "later"], "from the start: first again")
        #expect(harness.zoneFetchErrors.isEmpty)

        harness.resetLog()
        try await engine.fetchChanges()
        #expect(harness.fetchedNames.isEmpty, "the fresh token holds")
    }

    @Test func anExpiredDatabaseTokenReadsTheFeedAgainFromTheStart() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("first"))
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()
        harness.fake.expireDatabaseToken()
        harness.resetLog()
        try await engine.fetchChanges()

        #expect(hadTokens(harness.fake.requests(of: .databaseChanges)) == [false, true, false])
        #expect(harness.fetchedNames.isEmpty, "the zone's own token still holds: nothing comes twice")
        #expect(harness.zoneFetchErrors.isEmpty)
        #expect(harness.milestones.last == "didFetchChanges")
    }

    @Test func aRecordDeletedOnAnotherDeviceArrivesAsADeletion() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("gone"))
        harness.fake.serverSave(note("kept"))
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()
        #expect(harness.text(of: "gone") != nil)

        harness.fake.serverDelete(CKRecord.ID(recordName: "gone", zoneID: notesZone))
        harness.resetLog()
        try await engine.fetchChanges()
        #expect(harness.fetchedDeletions == ["gone"])
        #expect(harness.fetchedNames.isEmpty)
        #expect(harness.text(of: "gone") == nil)
        #expect(harness.text(of: "kept") != nil)
    }

    /// The delegate's options are asked before each request: a zone it leaves out of scope is not
    /// fetched and stays unfetched, for a later fetch.
    @Test func aZoneLeftOutOfTheFetchScopeStaysUnfetched() async throws {
        let harness = EngineHarness()
        let trips = CKRecordZone.ID(zoneName: "Trips")
        harness.fake.serverSave(note("note"))
        harness.fake.serverSave(note("trip", in: trips))
        harness.setFetchScope(.zoneIDs([notesZone]))
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()

        #expect(harness.fetchedNames == ["note"])
        #expect(engine.state.zoneIDsWithUnfetchedServerChanges == [trips])

        harness.setFetchScope(nil)
        harness.resetLog()
        try await engine.fetchChanges()
        #expect(harness.fetchedNames == ["trip"])
        #expect(engine.state.zoneIDsWithUnfetchedServerChanges.isEmpty)
    }
}

/// A way a zone is gone when its changes are fetched, and the deletion reason it is reported with.
struct ZoneGone: Sendable, CustomTestStringConvertible {
    let error: CKError
    let reason: CKDatabase.DatabaseChange.Deletion.Reason
    var testDescription: String { "\(error.code) → \(reason)" }
}

/// Whether each feed request carried a token.
private func hadTokens(_ requests: [ScriptedSyncDatabase.Request]) -> [Bool] {
    requests.map { request -> Bool in
        switch request {
        case .databaseChanges(let token), .recordZoneChanges(_, let token): token != nil
        default: false
        }
    }
}
