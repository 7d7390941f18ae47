import Foundation
import StratusModel

extension CKRecord {
    /// What happens to a record when the record its reference points at is deleted.
    public enum ReferenceAction: UInt, Sendable, Hashable {
        case none = 0
        case deleteSelf = 1
    }

    /// A reference field value (and a record's `parent` and `share`): the target's ID and the action.
    public typealias Reference = CKReference
}

/// A reference (`CKRecord.Reference`; top-level, as its Objective-C name, so `NSKeyedArchiver` can
/// name it on every platform).
public final class CKReference: NSObject, NSSecureCoding, NSCopying, CKRecordValue, Sendable {
    public let recordID: CKRecord.ID
    public let action: CKRecord.ReferenceAction

    public init(recordID: CKRecord.ID, action: CKRecord.ReferenceAction) {
        self.recordID = recordID
        self.action = action
    }

    public convenience init(record: CKRecord, action: CKRecord.ReferenceAction) {
        self.init(recordID: record.recordID, action: action)
    }

    /// A reference the server sent; a reference without a zone points into `zoneID`.
    convenience init(wire reference: StratusModel.Reference, zoneID: CKRecordZone.ID) {
        let zone = CKRecordZone.ID.resolving(reference.zoneID, in: zoneID)
        self.init(recordID: CKRecord.ID(recordName: reference.recordName, zoneID: zone), action: reference.action == .deleteSelf ? .deleteSelf : .none)
    }

    var wire: StratusModel.Reference {
        StratusModel.Reference(recordName: recordID.recordName, zoneID: recordID.zoneID.wire, action: action == .deleteSelf ? StratusModel.Reference.Action.deleteSelf : StratusModel.Reference.Action.none)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKReference else { return false }
        return recordID == other.recordID && action == other.action
    }

    public override var hash: Int { recordID.hash ^ Int(action.rawValue) }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public static var supportsSecureCoding: Bool { true }

    /// Archived under Apple's keys (`recordID`, `referenceAction`).
    public func encode(with coder: NSCoder) {
        coder.encode(recordID, forKey: "recordID")
        coder.encode(Int64(action.rawValue), forKey: "referenceAction")
    }

    public init?(coder: NSCoder) {
        guard let recordID = coder.object(CKRecord.ID.self, "recordID") else { return nil }
        self.recordID = recordID
        self.action = CKRecord.ReferenceAction(rawValue: UInt(clamping: coder.int("referenceAction", "action") ?? 0)) ?? .none
    }
}
