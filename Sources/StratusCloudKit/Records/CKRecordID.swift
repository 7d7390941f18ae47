import Foundation

extension CKRecord {
    /// Identifies a record: its name, unique within its zone, and the zone.
    public typealias ID = CKRecordID
}

/// Identifies a record (`CKRecord.ID`; a top-level class, as its Objective-C name, so
/// `NSKeyedArchiver` can name it on every platform).
public final class CKRecordID: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let recordName: String
    public let zoneID: CKRecordZone.ID

    public init(recordName: String = UUID().uuidString, zoneID: CKRecordZone.ID = .default) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKRecordID else { return false }
        return recordName == other.recordName && zoneID == other.zoneID
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(recordName)
        hasher.combine(zoneID.hash)
        return hasher.finalize()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public static var supportsSecureCoding: Bool { true }

    /// Archived under Apple's keys (`RecordName`, `ZoneID`).
    public func encode(with coder: NSCoder) {
        coder.encode(recordName as NSString, forKey: "RecordName")
        coder.encode(zoneID, forKey: "ZoneID")
    }

    public init?(coder: NSCoder) {
        guard let name = coder.string("RecordName", "recordName"), let zoneID = coder.object(CKRecordZone.ID.self, "ZoneID", "zoneID")
        else { return nil }
        self.recordName = name
        self.zoneID = zoneID
    }

    public override var description: String { "<CKRecordID: \(recordName); \(zoneID.zoneName):\(zoneID.ownerName)>" }
}
