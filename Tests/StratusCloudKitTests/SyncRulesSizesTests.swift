import Foundation
import Testing

@testable import StratusCloudKit

/// No change leaves the pending list because of a size (issue 49, item 3), on the engine's pure
/// core: a batch the app builds is cut into requests the server takes before it is sent, atomic
/// ones by zone; a request the server still finds too large is halved, atomic or not; an item a
/// modify left unanswered behind a request too large is sent again, smaller; zone changes go in
/// requests the server takes too.
@Suite struct SyncRulesSizesTests {
    static let a = CKRecordZone.ID(zoneName: "A")
    static let b = CKRecordZone.ID(zoneName: "B")
    static let c = CKRecordZone.ID(zoneName: "C")

    static func records(_ count: Int, in zone: CKRecordZone.ID) -> [CKRecord] {
        (0..<count).map { CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "\(zone.zoneName)-\($0)", zoneID: zone)) }
    }

    static func ids(_ count: Int, in zone: CKRecordZone.ID) -> [CKRecord.ID] {
        (0..<count).map { CKRecord.ID(recordName: "\(zone.zoneName)-gone-\($0)", zoneID: zone) }
    }

    /// Every change of `batches`, by name (saves and deletes apart).
    static func names(_ batches: [CKSyncEngine.RecordZoneChangeBatch]) -> (saves: [String], deletes: [String]) {
        (batches.flatMap { $0.recordsToSave.map(\.recordID.recordName) }, batches.flatMap { $0.recordIDsToDelete.map(\.recordName) })
    }

    static func count(_ batch: CKSyncEngine.RecordZoneChangeBatch) -> Int { batch.recordsToSave.count + batch.recordIDsToDelete.count }

    static func zones(_ batch: CKSyncEngine.RecordZoneChangeBatch) -> Set<String> {
        Set(batch.recordsToSave.map(\.recordID.zoneID.zoneName) + batch.recordIDsToDelete.map(\.zoneID.zoneName))
    }

    // MARK: - Before sending

    @Test func anAtomicBatchOverTheLimitGoesInRequestsTheServerTakesEachZoneWhole() {
        let batch = CKSyncEngine.RecordZoneChangeBatch(
            recordsToSave: Self.records(300, in: Self.a) + Self.records(250, in: Self.b), recordIDsToDelete: Self.ids(50, in: Self.c), atomicByZone: true
        )
        let requests = SyncRules.requests(for: batch)
        #expect(SyncRules.recordChangesPerRequest == 400)
        #expect(requests.allSatisfy { Self.count($0) <= 400 }, "\(requests.map(Self.count))")
        #expect(requests.allSatisfy { $0.atomicByZone })
        // Every change in exactly one request, in the batch's order: none is dropped.
        let sent = Self.names(requests)
        #expect(sent.saves == Self.names([batch]).saves)
        #expect(sent.deletes == Self.names([batch]).deletes)
        // Each zone's changes in one request (all or nothing, as the app asked), zones packed.
        #expect(requests.map(Self.zones) == [["A"], ["B", "C"]])
    }

    /// What the app asked to commit together is never split: one zone's atomic changes beyond a
    /// request go whole (and are refused as CloudKit refuses them, kept pending).
    @Test func anAtomicZoneLargerThanOneRequestGoesWholeAndIsNeverSplit() {
        let batch = CKSyncEngine.RecordZoneChangeBatch(recordsToSave: Self.records(900, in: Self.a), atomicByZone: true)
        let requests = SyncRules.requests(for: batch)
        #expect(requests.map(Self.count) == [900])
        #expect(Self.names(requests).saves == Self.names([batch]).saves)
        #expect(!SyncRules.canSplit(batch))
        #expect(SyncRules.verdict(forRequest: CKError(.limitExceeded), splittable: SyncRules.canSplit(batch), now: Date()) == .refuseEach)
    }

    @Test func aNonAtomicBatchOverTheLimitGoesInRunsAndOneWithinItGoesAsItIs() {
        let large = CKSyncEngine.RecordZoneChangeBatch(recordsToSave: Self.records(500, in: Self.a), recordIDsToDelete: Self.ids(300, in: Self.b))
        let requests = SyncRules.requests(for: large)
        #expect(requests.map(Self.count) == [400, 400])
        #expect(requests.allSatisfy { !$0.atomicByZone })
        #expect(Self.names(requests).saves == Self.names([large]).saves && Self.names(requests).deletes == Self.names([large]).deletes)
        let small = CKSyncEngine.RecordZoneChangeBatch(recordsToSave: Self.records(400, in: Self.a), atomicByZone: true)
        #expect(SyncRules.requests(for: small).map(Self.count) == [400])
    }

    // MARK: - When the server still finds a request too large

    @Test func anAtomicBatchRefusedAsTooLargeIsHalvedBetweenItsZonesOnlyAnyOtherByItsChanges() {
        let spanning = CKSyncEngine.RecordZoneChangeBatch(
            recordsToSave: Self.records(3, in: Self.a) + Self.records(2, in: Self.b), recordIDsToDelete: Self.ids(4, in: Self.c), atomicByZone: true
        )
        let halves = SyncRules.halves(of: spanning)
        #expect(halves.map(Self.zones) == [["A"], ["B", "C"]])
        #expect(halves.allSatisfy { $0.atomicByZone })
        let oneZone = CKSyncEngine.RecordZoneChangeBatch(recordsToSave: Self.records(5, in: Self.a), atomicByZone: true)
        #expect(SyncRules.halves(of: oneZone).map(Self.count) == [5], "one zone's atomic changes stay together")
        let loose = CKSyncEngine.RecordZoneChangeBatch(recordsToSave: Self.records(5, in: Self.a))
        #expect(SyncRules.halves(of: loose).map(Self.count) == [2, 3])
        #expect(Self.names(SyncRules.halves(of: loose)).saves == Self.names([loose]).saves)
        let single = CKSyncEngine.RecordZoneChangeBatch(recordsToSave: Self.records(1, in: Self.a), atomicByZone: true)
        #expect(SyncRules.halves(of: single).map(Self.count) == [1])
    }

    @Test func aChangeLeftUnansweredBehindARequestTooLargeIsSentAgainSmaller() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let behindTooLarge = CKError.unanswered(CKError(.limitExceeded, userInfo: [NSLocalizedDescriptionKey: "too large"]))
        #expect(SyncRules.verdict(forChange: behindTooLarge, now: now) == .sentAgainSmaller)
        // A record refused on its own as too large is reported to the app, and stays pending, set
        // aside until the app adds it again.
        #expect(SyncRules.verdict(forChange: CKError(.limitExceeded, userInfo: [NSLocalizedDescriptionKey: "record too large"]), now: now) == .setAside)
    }

    // MARK: - Zone changes

    @Test func zoneChangesGoInRequestsTheServerTakesAndAreHalvedWhenRefused() {
        let changes = (0..<450).map { CKSyncEngine.PendingDatabaseChange.saveZone(CKRecordZone(zoneID: CKRecordZone.ID(zoneName: "Z\($0)"))) }
        let requests = SyncRules.zoneRequests(changes)
        #expect(requests.map(\.count) == [200, 200, 50])
        #expect(requests.flatMap { $0 } == changes)
        #expect(SyncRules.halves(of: Array(changes.prefix(5))).map(\.count) == [2, 3])
        #expect(SyncRules.halves(of: Array(changes.prefix(1))).map(\.count) == [1])
        // Refused as too large: split, so no zone change leaves the list for a size.
        let tooLarge = CKError(.limitExceeded, userInfo: [NSLocalizedDescriptionKey: "too many zones"])
        #expect(SyncRules.verdict(forRequest: tooLarge, splittable: true, now: Date()) == .split)
    }
}
