import StratusCore
import StratusModel
import Testing

/// The activity ring: newest first, bounded, filtered by container, account, zone and `after`.
@Suite("Console: the activity log")
struct ActivityLogTests {
    private func entry(_ user: String, zone: String, container: String = "c") -> ActivityEntry {
        ActivityEntry(
            time: 0, kind: .commit, container: container, environment: .development, database: .private, userRecordName: user,
            zoneID: ZoneID(zoneName: zone, ownerRecordName: user)
        )
    }

    @Test("keeps the newest entries when full, newest first, and filters before the limit")
    func ring() {
        let log = ActivityLog(capacity: 3)
        for index in 1...5 { log.record(entry(index % 2 == 0 ? "bob" : "alice", zone: "Z\(index)")) }
        let all = log.entries(ActivityLog.Filter())
        #expect(all.entries.map(\.sequence) == [5, 4, 3])
        #expect(all.latest == 5)
        #expect(log.entries(ActivityLog.Filter(after: 4)).entries.map(\.sequence) == [5])
        #expect(log.entries(ActivityLog.Filter(userRecordName: "bob")).entries.map(\.sequence) == [4])
        #expect(log.entries(ActivityLog.Filter(zoneName: "Z3")).entries.map(\.sequence) == [3])
        #expect(log.entries(ActivityLog.Filter(limit: 2)).entries.map(\.sequence) == [5, 4])
        log.record(entry("carol", zone: "Z6", container: "other"))
        #expect(log.entries(ActivityLog.Filter(container: "c")).entries.map(\.sequence) == [5, 4])
    }

    @Test("an entry keeps at most 20 record names and counts them all")
    func recordNames() {
        let many = ActivityEntry(
            time: 0, kind: .commit, container: "c", environment: .development, database: .private, userRecordName: nil,
            recordNames: (1...30).map { "r\($0)" }
        )
        #expect(many.recordNames.count == ActivityEntry.recordNameLimit && many.recordCount == 30)
    }
}
