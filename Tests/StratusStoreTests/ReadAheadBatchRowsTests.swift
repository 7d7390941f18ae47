import StratusModel
import StratusStore
import Testing

/// The read-ahead driver (``ReadAheadBatchRows``), with no database: the engine, refused each row
/// once and run again, decides exactly what it decides reading on demand; it runs once more per
/// row it reads; and a back end's own failure ends it unchanged.
@Suite struct ReadAheadBatchRowsTests {
    typealias F = RuleFixture

    static let zone = StoredZone(id: 1, name: "Z", atomic: true, createdSeq: 1, lastSeq: 4, deletedSeq: nil, compactedBelowSeq: 0)

    /// The same ids every time: a run refused after taking one leaves the next run's the same.
    static let fixedIDs = BatchIDs(participantID: { "p1" }, shortGUID: { "0g1" })

    /// alice's zone: a root with a child, and a record `doomed` that `follower` points at with `DELETE_SELF`.
    static func zoneRows() -> RecordingRows {
        let stamp = RecordStamp(timestamp: 500, userRecordName: F.alice)
        func record(_ name: String, parent: String? = nil, seq: Int64, fields: [String: Field] = [:]) -> StoredRecord {
            StoredRecord(name: name, type: "T", fields: fields, created: stamp, modified: stamp, parentName: parent, seq: seq)
        }
        return RecordingRows(records: [
            record("root", seq: 1), record("child", parent: "root", seq: 2), record("doomed", seq: 3),
            record("follower", seq: 4, fields: ["target": F.reference("doomed", .deleteSelf)]),
        ], references: ["doomed": ["follower"]])
    }

    /// A batch reading most kinds of row: a save under a stored parent, a delete that cascades,
    /// and a share of the root with bob in it.
    static let batch = PreparedBatch(encoded: F.batch([
        F.save("new", ["caption": .string("hello")], parent: "child"),
        F.delete("doomed"),
        F.share("share", root: "root", participants: [F.bobInvited()]),
    ]))

    @Test func decidesWhatTheEngineDecidesOnDemand() throws {
        let onDemand = try ZoneBatchEngine.decide(Self.batch, zone: Self.zone, sequence: 10, rows: Self.zoneRows(), ids: Self.fixedIDs)
        let (readAhead, _) = try ReadAheadBatchRows.decide(Self.batch, zone: Self.zone, sequence: 10, over: Self.zoneRows(), ids: Self.fixedIDs)
        #expect(readAhead.result == onDemand.result)
        #expect(readAhead.commit && onDemand.commit)
        #expect(readAhead.sequence == onDemand.sequence)
        #expect(readAhead.writes.records.mapValues(\.record) == onDemand.writes.records.mapValues(\.record))
        #expect(readAhead.writes.participants == onDemand.writes.participants)
        #expect(readAhead.writes.shares == onDemand.writes.shares)
        // The batch did what it is here for: a cascade, a share with bob, a save under a stored parent.
        #expect(readAhead.writes.records["follower"]?.record.deleted == true)
        #expect(readAhead.writes.participants["share"]?.contains { $0.userRecordName == F.bob } == true)
        #expect(readAhead.writes.records["new"]?.record.parentName == "child")
    }

    @Test func runsOnceMorePerRowItReads() throws {
        let counted = Self.zoneRows()
        _ = try ZoneBatchEngine.decide(Self.batch, zone: Self.zone, sequence: 10, rows: counted, ids: Self.fixedIDs)
        let base = Self.zoneRows()
        let (_, runs) = try ReadAheadBatchRows.decide(Self.batch, zone: Self.zone, sequence: 10, over: base, ids: Self.fixedIDs)
        #expect(counted.reads.count > 5, "the batch reads records, references, children, shares and the quota: \(counted.reads)")
        #expect(runs == counted.reads.count + 1)
        #expect(base.reads == counted.reads)
    }

    @Test func aBackEndsOwnFailureEndsItUnchanged() throws {
        let base = Self.zoneRows()
        base.failure = StoreError(.busy, "the disk is busy")
        #expect(throws: StoreError(.busy, "the disk is busy")) {
            try ReadAheadBatchRows.decide(Self.batch, zone: Self.zone, sequence: 10, over: base, ids: Self.fixedIDs)
        }
        #expect(base.reads.count == 1, "read once, not retried: \(base.reads)")
    }
}

/// A zone's rows held in memory, noting every distinct read (and failing each with `failure`, once set).
final class RecordingRows: BatchRows {
    let records: [String: StoredRecord]
    let references: [String: [String]]
    var reads: Set<String> = []
    var failure: StoreError?

    init(records: [StoredRecord], references: [String: [String]]) {
        self.records = Dictionary(uniqueKeysWithValues: records.map { ($0.name, $0) })
        self.references = references
    }

    private func read(_ what: String) throws {
        reads.insert(what)
        if let failure { throw failure }
    }

    func record(_ name: String) throws -> BatchRecordRow? {
        try read("record \(name)")
        return records[name].map { BatchRecordRow(record: $0, fieldsBytes: 10) }
    }

    func referenceSources(of target: String) throws -> [String] {
        try read("sources of \(target)")
        return references[target] ?? []
    }

    func children(of name: String) throws -> [String] {
        try read("children of \(name)")
        return records.values.filter { $0.parentName == name }.map(\.name).sorted()
    }

    func share(named name: String) throws -> ShareRow? {
        try read("share \(name)")
        return nil
    }

    func shares(hierarchy: Bool) throws -> [ShareRow] {
        try read("shares \(hierarchy)")
        return []
    }

    func participants(of share: String) throws -> [StoredParticipant] {
        try read("participants of \(share)")
        return []
    }

    func sharesAccepted(by user: String) throws -> Set<String> {
        try read("accepted by \(user)")
        return []
    }

    func fieldTypes(of fields: [SchemaField], in database: DatabaseKey) throws -> [SchemaFieldKey: String] {
        try read("types of \(fields.map(\.fieldName))")
        return [:]
    }

    func quota(of database: DatabaseKey) throws -> QuotaRow? {
        try read("quota")
        return QuotaRow(bytes: 1 << 30, used: 100)
    }

    func upload(_ uploadID: String) throws -> UploadRow? {
        try read("upload \(uploadID)")
        return nil
    }

    func blobIsStored(_ checksum: String) throws -> Bool {
        try read("blob \(checksum)")
        return false
    }
}

extension PreparedBatch {
    /// The batch prepared; its fields (strings) always encode.
    init(encoded batch: ZoneBatch) {
        guard let prepared = try? PreparedBatch(batch) else { preconditionFailure("fields that cannot encode") }
        self = prepared
    }
}
