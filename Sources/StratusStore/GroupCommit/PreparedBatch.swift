import Foundation

/// A zone batch with each write's fields already encoded as the JSON a store keeps (and that
/// JSON's size, which quotas count), done on the caller's task rather than inside the writer.
/// Both stores' group commits queue these.
package struct PreparedBatch: Sendable {
    package let batch: ZoneBatch
    package let fieldsJSON: [String]
    /// The rows the batch may write (records and participants): how much of the writer's time
    /// it takes, so one group commit never holds the writer for much more than a budget.
    package let cost: Int

    package init(_ batch: ZoneBatch) throws {
        self.batch = batch
        self.cost = batch.writes.reduce(0) { $0 + 1 + ($1.share?.participants?.count ?? 0) }
        self.fieldsJSON = try batch.writes.map { try StoredFields.encode($0.fields) }
    }

    /// The batch with its fields encoded, on the caller's task and in parallel with other
    /// requests (not inside the serialized write); an encoding failure is the store's.
    package static func encoding(_ batch: ZoneBatch) throws(StoreError) -> PreparedBatch {
        do {
            return try PreparedBatch(batch)
        } catch {
            throw StoreError(.failure, "cannot encode fields: \(error)")
        }
    }

    /// How many of `queued` (oldest first) the next group commit takes: at most `maximumGroup`,
    /// and beyond the first, no more than `maximumCost` rows in all.
    package static func groupCount(_ queued: some Sequence<PreparedBatch>, maximumGroup: Int, maximumCost: Int) -> Int {
        var count = 0
        var cost = 0
        for batch in queued.prefix(maximumGroup) {
            if count > 0 && cost + batch.cost > maximumCost { break }
            cost += batch.cost
            count += 1
        }
        return count
    }
}
