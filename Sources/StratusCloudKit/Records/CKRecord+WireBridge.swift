import Foundation
import StratusModel

/// The package's bridge between CloudKit's records and CloudKit Web Services' records, for
/// StratusKit's simulated devices: their mirror keeps wire records, and they sync through
/// ``CKSyncEngine`` like any app. Each direction goes through the same conversions the
/// framework itself uses on the wire (``RecordValues``, ``CKRecord/apply(wire:assets:)``).
extension CKRecord {
    /// The record that saves `wire` in `zoneID`: its fields (and parent) set, so the save sends
    /// them, on top of `base` — the server's last version, whose change tag it carries — or, with
    /// no base, a record the server has not seen.
    package static func toSave(_ wire: Record, in zoneID: CKRecordZone.ID, base: Record?) -> CKRecord {
        let id = ID(recordName: wire.recordName ?? "", zoneID: zoneID)
        let record = base.map { from(wire: $0, zoneID: zoneID) } ?? make(recordType: wire.recordType ?? "", recordID: id)
        record.recordChangeTag = wire.recordChangeTag
        for (key, field) in wire.fields ?? [:] { record[key] = RecordValues.value(of: field, in: zoneID) }
        if let parent = wire.parent { record.setParent(ID(recordName: parent.recordName, zoneID: zoneID)) }
        return record
    }

    /// The record (a ``CKShare`` for a share) the server sent as `wire`, in `zoneID` (the
    /// caller's name for the zone): what a simulated device hands its app from its mirror.
    package static func received(_ wire: Record, in zoneID: CKRecordZone.ID) -> CKRecord {
        from(wire: wire, zoneID: zoneID)
    }

    /// The record as the wire spells it, in `zoneID` (the caller's name for the zone): every
    /// field with a value, the system fields, and a share's URL, permission and participants.
    package func wireRecord(in zoneID: ZoneID) -> Record {
        var record = Record(recordName: recordID.recordName, recordType: recordType, recordChangeTag: recordChangeTag, fields: wireFields(all: true).fields)
        record.zoneID = zoneID
        record.created = creationDate.map { RecordStamp(timestamp: RecordValues.milliseconds($0), userRecordName: creatorUserRecordID?.recordName) }
        record.modified = modificationDate.map { RecordStamp(timestamp: RecordValues.milliseconds($0), userRecordName: lastModifiedUserRecordID?.recordName) }
        record.parent = parentForWire.pointer
        record.share = share.map { RecordPointer(recordName: $0.recordID.recordName) }
        record.shortGUID = shortGUID
        if let share = self as? CKShare {
            record.url = share.url?.absoluteString
            record.publicPermission = share.publicPermission.wire
            record.owner = share.owner.wire
            record.participants = share.participants.map(\.wire)
            record.currentUserParticipant = share.currentUserParticipant?.wire
        }
        return record
    }
}

extension CKAsset {
    /// The SHA-256 of the asset's bytes, when the server named it.
    package var fileChecksum: String? { stored?.fileChecksum }
}
