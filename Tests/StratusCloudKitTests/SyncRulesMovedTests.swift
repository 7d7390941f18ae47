import Foundation
import StratusModel
import Testing

@testable import StratusCloudKit

/// The decisions that moved from the engine's driver into its core: the database page applied
/// to the state, the push that calls for a fetch, the batch filter, the answers' partition and
/// the in-request retry policy — each on plain values, no engine.
@Suite struct SyncRulesMovedTests {
    static let now = Date(timeIntervalSince1970: 1_000_000)
    static let notes = CKRecordZone.ID(zoneName: "Notes")
    static let trips = CKRecordZone.ID(zoneName: "Trips")

    static func record(_ name: String, in zone: CKRecordZone.ID = notes) -> CKRecord {
        CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: name, zoneID: zone))
    }

    static func error(_ code: CKError.Code, retryAfter: Double? = nil) -> CKError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "x"]
        if let retryAfter { info[CKErrorRetryAfterKey] = retryAfter }
        return CKError(code, userInfo: info)
    }

    // MARK: - The database page

    @Test func aDatabasePageMarksModifiedZonesUnfetchedOnceForgetsDeletedOnesAndMovesTheToken() {
        var state = CKSyncEngine.State.Serialization()
        let trips = CKSyncEngine.State.Serialization.Zone(Self.trips)
        state.zoneTokens[trips.key] = "t1"
        state.unfetchedZones = [trips]
        SyncRules.apply(databasePage: [Self.notes, Self.notes], deletions: [Self.trips], changeToken: "d2", to: &state)
        #expect(state.unfetchedZones == [CKSyncEngine.State.Serialization.Zone(Self.notes)])
        #expect(state.zoneTokens[trips.key] == nil)
        #expect(state.databaseToken == "d2")
        // A zone already waiting keeps its place; a new one goes after it.
        SyncRules.apply(databasePage: [Self.trips, Self.notes], deletions: [], changeToken: "d3", to: &state)
        #expect(state.unfetchedZones.map(\.name) == ["Notes", "Trips"])
    }

    // MARK: - Pushes

    static func notification(_ scope: DatabaseScope, pruned: Bool = false) -> PushNotification {
        PushNotification(
            notificationID: "1", notificationType: .database, subscriptionID: "s", containerIdentifier: "iCloud.x", databaseScope: scope,
            isPruned: pruned
        )
    }

    @Test func aPushCallsForAFetchWhenItNamesTheDatabaseOrNotificationsWereDropped() {
        #expect(SyncRules.concernsDatabase([Self.notification(.private)], scope: .private))
        #expect(!SyncRules.concernsDatabase([Self.notification(.shared)], scope: .private))
        #expect(SyncRules.concernsDatabase([Self.notification(.shared)], scope: .shared))
        #expect(SyncRules.concernsDatabase([Self.notification(.public, pruned: true)], scope: .private))
        #expect(!SyncRules.concernsDatabase([], scope: .private))
    }

    // MARK: - The batch filter

    @Test func theBatchFilterLeavesOutWhatThisSendSentAndWhatIsHeld() {
        let batch = CKSyncEngine.RecordZoneChangeBatch(
            recordsToSave: [Self.record("a"), Self.record("b"), Self.record("c")], recordIDsToDelete: [Self.record("d").recordID]
        )
        let sent: Set<CKSyncEngine.PendingRecordZoneChange> = [.saveRecord(Self.record("a").recordID)]
        let held: Set<CKSyncEngine.PendingRecordZoneChange> = [.deleteRecord(Self.record("d").recordID)]
        let unsent = SyncRules.unsent(batch, attempted: sent, held: held)
        #expect(unsent?.recordsToSave.map(\.recordID.recordName) == ["b", "c"])
        #expect(unsent?.recordIDsToDelete.isEmpty == true)
        let nothing = SyncRules.unsent(
            CKSyncEngine.RecordZoneChangeBatch(recordsToSave: [Self.record("a")]), attempted: sent, held: []
        )
        #expect(nothing == nil)
    }

    /// A child sent before its parent would be refused for a parent the server lacks, and leave
    /// the list: it waits with a parent held back or set aside, and so do its own children.
    @Test func theBatchFilterKeepsTheChildrenOfAWaitingParentBackWithIt() {
        let parent = Self.record("trip")
        let child = Self.record("day")
        child.parent = CKRecord.Reference(recordID: parent.recordID, action: .none)
        let grandchild = Self.record("photo")
        grandchild.parent = CKRecord.Reference(recordID: child.recordID, action: .none)
        let orphanOfAnother = Self.record("note")
        orphanOfAnother.parent = CKRecord.Reference(recordID: Self.record("elsewhere").recordID, action: .none)
        // The delegate's order need not put parents first.
        let batch = CKSyncEngine.RecordZoneChangeBatch(recordsToSave: [grandchild, orphanOfAnother, child, parent])
        let unsent = SyncRules.unsent(batch, attempted: [], held: [.saveRecord(parent.recordID)])
        #expect(unsent?.recordsToSave.map(\.recordID.recordName) == ["note"])
        #expect(SyncRules.unsent(batch, attempted: [], held: [])?.recordsToSave.count == 4)
    }

    @Test func aZonePageMovesTheZonesTokenAndEndsItsUnfetchedMarkWhenNothingMoreComes() {
        var state = CKSyncEngine.State.Serialization()
        let notes = CKSyncEngine.State.Serialization.Zone(Self.notes)
        let trips = CKSyncEngine.State.Serialization.Zone(Self.trips)
        state.unfetchedZones = [notes, trips]
        SyncRules.apply(zonePage: "n1", moreComing: true, of: Self.notes, to: &state)
        #expect(state.zoneTokens[notes.key] == "n1" && state.unfetchedZones == [notes, trips], "more to come: still unfetched")
        SyncRules.apply(zonePage: "n2", moreComing: false, of: Self.notes, to: &state)
        #expect(state.zoneTokens[notes.key] == "n2" && state.unfetchedZones == [trips])
        state.zoneTokens[trips.key] = "t1"
        SyncRules.forget(Self.trips, in: &state)
        #expect(state.unfetchedZones.isEmpty && state.zoneTokens == [notes.key: "n2"])
    }

    @Test func aZonePagesRecordsArriveOldestChangeFirstAndTheOnesThatFailedAreNamed() {
        func arrived(_ name: String, at seconds: Double) -> Result<CKDatabase.RecordZoneChange.Modification, any Error> {
            let record = Self.record(name)
            record.modificationDate = Date(timeIntervalSince1970: seconds)
            return .success(CKDatabase.RecordZoneChange.Modification(record: record))
        }
        let results: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>] = [
            Self.record("late").recordID: arrived("late", at: 30), Self.record("b").recordID: arrived("b", at: 10),
            Self.record("a").recordID: arrived("a", at: 10), Self.record("lost").recordID: .failure(Self.error(.assetFileNotFound)),
        ]
        let (modifications, failures) = SyncRules.arrivals(results)
        #expect(modifications.map(\.record.recordID.recordName) == ["a", "b", "late"])
        #expect(failures.mapValues(\.code) == [Self.record("lost").recordID: .assetFileNotFound])
    }

    // MARK: - The answers' partition

    @Test func aModifysAnswerIsReportedButForWhatGoesAgainSmaller() {
        let batch = CKSyncEngine.RecordZoneChangeBatch(
            recordsToSave: [Self.record("a"), Self.record("b", in: Self.trips)], recordIDsToDelete: [Self.record("c", in: Self.trips).recordID],
            atomicByZone: true
        )
        // Its zone's request came after one the server found too large: nothing answered it.
        let tooLarge = CKError.unanswered(Self.error(.limitExceeded))
        let (answered, again) = SyncRules.partition(
            batch, saveFailures: [Self.record("b", in: Self.trips).recordID: tooLarge],
            deleteFailures: [Self.record("c", in: Self.trips).recordID: tooLarge], now: Self.now
        )
        #expect(answered.recordsToSave.map(\.recordID.recordName) == ["a"] && answered.recordIDsToDelete.isEmpty)
        #expect(again.recordsToSave.map(\.recordID.recordName) == ["b"] && again.recordIDsToDelete.map(\.recordName) == ["c"])
        #expect(again.atomicByZone)
        // A record refused for its own size, and a refusal for good, are answered (reported), not sent again.
        let own = SyncRules.partition(batch, saveFailures: [Self.record("a").recordID: Self.error(.limitExceeded)], deleteFailures: [:], now: Self.now)
        #expect(own.again.recordsToSave.isEmpty && own.answered.recordsToSave.count == 2)
        let conflict = SyncRules.partition(batch, saveFailures: [Self.record("a").recordID: Self.error(.serverRecordChanged)], deleteFailures: [:], now: Self.now)
        #expect(conflict.again.recordsToSave.isEmpty && conflict.answered.recordsToSave.count == 2)
    }

    @Test func aModifysAnswersAreTakenOrRefusedInTheOrderSentAndAnUnnamedChangeIsInNeither() {
        struct Refusal: Error {}
        let results: [String: Result<Int, any Error>] = [
            "c": .success(3), "a": .failure(Self.error(.serverRecordChanged)), "b": .success(2), "d": .failure(Refusal()),
        ]
        let answers = SyncRules.answers(to: ["a", "b", "x", "c", "d"], by: { $0 }, in: results)
        #expect(answers.taken.map(\.change) == ["b", "c"] && answers.taken.map(\.answer) == [2, 3])
        #expect(answers.refused.map(\.change) == ["a", "d"])
        // A refusal keeps its CloudKit code; any other error is named as CloudKit would.
        #expect(answers.refused.first?.error.code == .serverRecordChanged)
        #expect(answers.refused.last?.error.code == CKError.wrapping(Refusal()).code)
    }

    @Test func aZoneChangeIsNeverSetAsideOnlyKeptPending() {
        #expect(SyncRules.verdict(forZoneChange: Self.error(.limitExceeded), now: Self.now) == .keptPending)
        #expect(SyncRules.verdict(forZoneChange: CKError.unanswered(Self.error(.limitExceeded)), now: Self.now) == .keptPending)
        // As a record change's otherwise.
        #expect(SyncRules.verdict(forZoneChange: nil, now: Self.now) == .answered)
        #expect(SyncRules.verdict(forZoneChange: Self.error(.quotaExceeded), now: Self.now) == .answered)
        #expect(SyncRules.verdict(forZoneChange: Self.error(.networkFailure, retryAfter: 3), now: Self.now) == .heldUntil(Self.now.addingTimeInterval(3)))
    }

    // MARK: - Retrying within a request

    @Test func aTransientFailureIsRetriedInTheRequestAfterItsRetryAfterOrABackOff() {
        #expect(SyncRules.inlineRetryDelay(after: Self.error(.networkFailure), attempt: 1, attempts: 4) == 0.4)
        #expect(SyncRules.inlineRetryDelay(after: Self.error(.networkFailure), attempt: 2, attempts: 4) == 0.8)
        #expect(SyncRules.inlineRetryDelay(after: Self.error(.requestRateLimited, retryAfter: 7), attempt: 1, attempts: 4) == 7)
        #expect(SyncRules.inlineRetryDelay(after: Self.error(.serviceUnavailable, retryAfter: 90), attempt: 1, attempts: 4) == 30)
        // The last attempt, and anything not transient, is not retried.
        #expect(SyncRules.inlineRetryDelay(after: Self.error(.networkFailure), attempt: 4, attempts: 4) == nil)
        #expect(SyncRules.inlineRetryDelay(after: Self.error(.serverRecordChanged), attempt: 1, attempts: 4) == nil)
        #expect(SyncRules.inlineRetryDelay(after: Self.error(.quotaExceeded), attempt: 1, attempts: 4) == nil)
    }

    // MARK: - The held clock

    @Test func aHeldClockEndsASleepOnlyWhenMovedPastItsDeadline() async throws {
        let clock = ManualSyncClock()
        let start = clock.now
        let sleeper = Task { try await clock.clock.sleep(seconds: 5, plus: .milliseconds(100)) }
        await clock.waitForSleepers()
        clock.advance(by: 5)
        #expect(clock.sleeperCount == 1, "5 s of 5.1 s passed")
        clock.advance(by: 0.1)
        try await sleeper.value
        #expect(clock.now.timeIntervalSince(start) == 5.1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledSleepOnAHeldClockThrows() async {
        let clock = ManualSyncClock()
        let sleeper = Task { try await clock.clock.sleep(seconds: 60) }
        await clock.waitForSleepers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }
}
