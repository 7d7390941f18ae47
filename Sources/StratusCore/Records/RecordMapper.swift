import StratusModel
import StratusStore

/// Turns stored records into the wire's record dictionaries, applying `desiredKeys`.
struct RecordMapper: Sendable {
    let zoneID: ZoneID
    /// Renders share records' participants; without it they carry only their record fields.
    var shares: ShareRenderer?
    /// Puts download URLs on asset values; without it assets carry none.
    var links: AssetLinks?

    init(zoneID: ZoneID, shares: ShareRenderer? = nil, links: AssetLinks? = nil) {
        self.zoneID = zoneID
        self.shares = shares
        self.links = links
    }

    /// The full record dictionary; `desiredKeys` limits the user fields (`[]` = system fields only).
    func record(_ stored: StoredRecord, desiredKeys: [String]?) -> Record {
        if stored.deleted {
            // The type stays with the tombstone; it is written only for a client that asks.
            var tombstone = Record.tombstone(recordName: stored.name, zoneID: zoneID)
            tombstone.recordType = stored.type
            return tombstone
        }
        var record = Record(recordName: stored.name, recordType: stored.type, recordChangeTag: stored.changeTag)
        if let desiredKeys {
            var fields: [String: Field] = [:]
            for key in desiredKeys {
                if let field = stored.fields[key] { fields[key] = field }
            }
            record.fields = links?.decorate(fields) ?? fields
        } else {
            record.fields = links?.decorate(stored.fields) ?? stored.fields
        }
        record.pluginFields = [:]
        record.created = stored.created
        record.modified = stored.modified
        record.deleted = false
        record.zoneID = zoneID
        if let parent = stored.parentName { record.parent = RecordPointer(recordName: parent) }
        if let share = stored.shareName { record.share = RecordPointer(recordName: share, zoneID: zoneID) }
        record.shortGUID = stored.shortGUID
        if let shares, ShareNames.isShareType(stored.type) { shares.decorate(&record) }
        return record
    }

    /// The entry of a successful delete.
    func deleted(_ name: String) -> Record {
        var record = Record(recordName: name)
        record.deleted = true
        record.zoneID = zoneID
        return record
    }
}
