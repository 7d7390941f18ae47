import Foundation

/// How large a request the engine sends. The rule: no change leaves the pending list because of a
/// size, and no zone the app asked to save atomically is split. A batch the delegate builds is
/// cut into requests the server takes before it is sent (``requests(for:limit:)``), and one the
/// server still finds too large (`limitExceeded`, its bytes) is halved and sent again
/// (`halves(of:)`) — an atomic batch only between its zones. One zone's atomic changes beyond
/// what a request holds are refused as CloudKit refuses them (`limitExceeded`, reported to the
/// delegate to batch smaller) and stay pending.
extension SyncRules {
    /// The most record changes one modify of the engine carries: what CloudKit's framework takes
    /// in one operation (``CKDatabase/itemsPerModify``). The module splits a non-atomic zone's
    /// share into requests of ``CKDatabase/operationsPerRequest``; Stratus takes an atomic zone
    /// request of this size when the client asks.
    static let recordChangesPerRequest = CKDatabase.itemsPerModify

    /// The most zone changes one zones/modify carries (the server's operations a request).
    static let zoneChangesPerRequest = CKDatabase.operationsPerRequest

    /// `batch` as modifies none of which carries more than `limit` changes, in the batch's order
    /// (saves, then deletes) — but an atomic zone's: a non-atomic batch goes in runs of `limit`;
    /// an atomic one goes by zone, each zone's changes together, as many whole zones a modify as
    /// fit (a zone with more than `limit` changes goes whole, and is refused as too large). A
    /// batch within `limit` goes as it is.
    static func requests(for batch: CKSyncEngine.RecordZoneChangeBatch, limit: Int = SyncRules.recordChangesPerRequest) -> [CKSyncEngine.RecordZoneChangeBatch] {
        let limit = max(limit, 1)
        let items = BatchItem.items(of: batch)
        guard items.count > limit else { return [batch] }
        let pieces: [[BatchItem]] = batch.atomicByZone ? BatchItem.byZone(items) : runs(of: items, limit: limit)
        // Whole pieces packed into modifies of at most `limit` (a non-atomic batch's runs are full).
        var requests: [[BatchItem]] = []
        for piece in pieces {
            if let last = requests.last, last.count + piece.count <= limit {
                requests[requests.count - 1].append(contentsOf: piece)
            } else {
                requests.append(piece)
            }
        }
        return requests.map { BatchItem.batch(of: $0, atomicByZone: batch.atomicByZone) }
    }

    /// A batch the server found too large, in two: an atomic batch of several zones between its
    /// zones, any other its changes halved. One zone's atomic changes, and a single change, stay
    /// whole (``canSplit(_:)`` is then `false`).
    static func halves(of batch: CKSyncEngine.RecordZoneChangeBatch) -> [CKSyncEngine.RecordZoneChangeBatch] {
        let items = BatchItem.items(of: batch)
        guard items.count > 1 else { return [batch] }
        if batch.atomicByZone {
            let zones = BatchItem.byZone(items)
            guard zones.count > 1 else { return [batch] }
            let middle = zones.count / 2
            return [zones[..<middle], zones[middle...]].map { BatchItem.batch(of: $0.flatMap { $0 }, atomicByZone: true) }
        }
        return halves(of: items).map { BatchItem.batch(of: $0, atomicByZone: false) }
    }

    /// Whether a batch refused as too large can go again smaller without splitting what the app
    /// asked to commit together.
    static func canSplit(_ batch: CKSyncEngine.RecordZoneChangeBatch) -> Bool {
        halves(of: batch).count > 1
    }

    /// Zone changes as zones/modify requests the server takes, in order.
    static func zoneRequests(_ changes: [CKSyncEngine.PendingDatabaseChange], limit: Int = SyncRules.zoneChangesPerRequest) -> [[CKSyncEngine.PendingDatabaseChange]] {
        runs(of: changes, limit: max(limit, 1))
    }

    /// Items in two (the first half the smaller); fewer than two stay whole.
    static func halves<Item>(of items: [Item]) -> [[Item]] {
        guard items.count > 1 else { return [items] }
        let middle = items.count / 2
        return [Array(items[..<middle]), Array(items[middle...])]
    }

    /// Items in runs of `limit` (the last one shorter).
    private static func runs<Item>(of items: [Item], limit: Int) -> [[Item]] {
        stride(from: 0, to: items.count, by: limit).map { Array(items[$0..<min($0 + limit, items.count)]) }
    }

    /// One change of a batch: a record to save or an ID to delete.
    private enum BatchItem {
        case save(CKRecord)
        case delete(CKRecord.ID)

        var recordID: CKRecord.ID {
            switch self {
            case .save(let record): record.recordID
            case .delete(let id): id
            }
        }

        /// A batch's changes: its saves, then its deletes.
        static func items(of batch: CKSyncEngine.RecordZoneChangeBatch) -> [BatchItem] {
            batch.recordsToSave.map { BatchItem.save($0) } + batch.recordIDsToDelete.map { BatchItem.delete($0) }
        }

        /// Items grouped by zone, zones in first-seen order, each zone's items in their order.
        static func byZone(_ items: [BatchItem]) -> [[BatchItem]] {
            var order: [CKRecordZone.ID] = []
            var groups: [CKRecordZone.ID: [BatchItem]] = [:]
            for item in items {
                let zoneID = item.recordID.zoneID
                if groups[zoneID] == nil { order.append(zoneID) }
                groups[zoneID, default: []].append(item)
            }
            return order.map { groups[$0] ?? [] }
        }

        /// A batch of these items (saves first, as a batch holds them).
        static func batch(of items: [BatchItem], atomicByZone: Bool) -> CKSyncEngine.RecordZoneChangeBatch {
            CKSyncEngine.RecordZoneChangeBatch(
                recordsToSave: items.compactMap { if case .save(let record) = $0 { record } else { nil } },
                recordIDsToDelete: items.compactMap { if case .delete(let id) = $0 { id } else { nil } },
                atomicByZone: atomicByZone
            )
        }
    }
}
