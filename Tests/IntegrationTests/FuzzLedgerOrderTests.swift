import StratusModel
import Testing

@testable import StratusFuzz

/// The ledger ranks acknowledged saves by where the server put them: by save time, and where two
/// saves share a millisecond, by their change tags (Stratus's global change sequence, base 36) —
/// so the last acknowledged value is the one the server holds, however fast the saves came.
@Suite("Sync fuzzer: the ledger's save order")
struct FuzzLedgerOrderTests {
    static func saved(at milliseconds: Int64, tag: String?) -> FuzzLedger.SaveOrder {
        var record = Record(recordName: "r", recordType: "Entry", recordChangeTag: tag)
        record.modified = RecordStamp(timestamp: milliseconds, userRecordName: "_a")
        return FuzzLedger.SaveOrder(record)
    }

    @Test func savesInOneMillisecondRankByTheirChangeTags() {
        #expect(Self.saved(at: 5, tag: "z") < Self.saved(at: 5, tag: "10"))
        #expect(Self.saved(at: 4, tag: "10") < Self.saved(at: 5, tag: "z"))
        #expect(!(Self.saved(at: 5, tag: "10") < Self.saved(at: 5, tag: "10")))
        #expect(Self.saved(at: 5, tag: nil) < Self.saved(at: 5, tag: "1"))
    }
}
