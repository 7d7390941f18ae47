/// How both stores fold a participant's hierarchy-share coverage into a change page: records
/// that entered their shares after the token come back at the position they entered, ones that
/// left and are not visible come back as tombstones, and each record appears once, at its
/// latest position.
package enum CoverageMerge {
    /// `records` is the page of visible records changed after the token, in order; `coverage` the
    /// records that entered or left with the position they did. The answer holds at most
    /// `limit + 1` entries in position order, with each one's feed position (a record's own
    /// `seq`, its change tag, is never altered).
    package static func merge(
        _ records: [StoredRecord], coverage: [(record: StoredRecord, position: Int64)], visible: Set<String>,
        recordTypes: [String]?, limit: Int
    ) -> (records: [StoredRecord], positions: [Int64]) {
        guard !coverage.isEmpty else { return (records, records.map(\.seq)) }
        var merged: [String: (record: StoredRecord, position: Int64)] = [:]
        for record in records { merged[record.name] = (record, record.seq) }
        for (found, entered) in coverage {
            var record = found
            let position = max(record.seq, entered)
            if !visible.contains(record.name) {
                record.fields = [:]
                record.deleted = true
            } else if let recordTypes, !recordTypes.contains(record.type) {
                continue
            }
            if let known = merged[record.name], known.position >= position { continue }
            merged[record.name] = (record, position)
        }
        let entries = merged.values.sorted { $0.position < $1.position }.prefix(limit + 1)
        return (entries.map(\.record), entries.map(\.position))
    }
}
