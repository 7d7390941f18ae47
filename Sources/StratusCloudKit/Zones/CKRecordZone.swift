import Foundation
import StratusModel

/// The owner name that stands for the current user (`CKCurrentUserDefaultName`).
public let CKCurrentUserDefaultName = ZoneID.currentUserOwnerName

/// A record zone: its ID and what it can do. Custom zones of the private database fetch changes,
/// commit atomically and can be shared; the default zone does none of these.
public final class CKRecordZone: NSObject, NSSecureCoding, Sendable {
    /// What a zone can do.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let fetchChanges = Capabilities(rawValue: 1 << 0)
        public static let atomic = Capabilities(rawValue: 1 << 1)
        public static let sharing = Capabilities(rawValue: 1 << 2)
        public static let zoneWideSharing = Capabilities(rawValue: 1 << 3)
    }

    public let zoneID: ID
    public let capabilities: Capabilities
    /// The zone-wide share of the zone, when it has one.
    public let share: CKRecord.Reference?

    public init(zoneID: ID) {
        self.zoneID = zoneID
        self.capabilities = zoneID.zoneName == ID.defaultZoneName ? [] : [.fetchChanges, .atomic, .sharing, .zoneWideSharing]
        self.share = nil
    }

    public convenience init(zoneName: String) {
        self.init(zoneID: ID(zoneName: zoneName))
    }

    /// The database's default zone.
    public static func `default`() -> CKRecordZone { CKRecordZone(zoneID: .default) }

    /// A zone the server sent, as `id`; its zone-wide share from the `zoneShares` extension.
    init(wire zone: Zone, id: ID) {
        self.zoneID = id
        self.capabilities = zone.zoneID.isDefaultZone ? [] : [.fetchChanges, .atomic, .sharing, .zoneWideSharing]
        self.share = zone.share.map { pointer in
            CKRecord.Reference(recordID: CKRecord.ID(recordName: pointer.recordName, zoneID: ID.resolving(pointer.zoneID, in: id)), action: .none)
        }
    }

    public static var supportsSecureCoding: Bool { true }

    /// Archived under Apple's keys (`ZoneID`, `Capabilities`, `ShareReference`).
    public func encode(with coder: NSCoder) {
        coder.encode(zoneID, forKey: "ZoneID")
        coder.encode(NSNumber(value: capabilities.rawValue), forKey: "Capabilities")
        if let share { coder.encode(share, forKey: "ShareReference") }
    }

    public init?(coder: NSCoder) {
        guard let zoneID = coder.object(ID.self, "ZoneID", "zoneID") else { return nil }
        self.zoneID = zoneID
        let capabilities = coder.object(NSNumber.self, "Capabilities")?.uintValue ?? UInt(clamping: coder.decodeInt64(forKey: "capabilities"))
        self.capabilities = Capabilities(rawValue: capabilities)
        self.share = coder.object(CKReference.self, "ShareReference")
    }

    public override var description: String { "<CKRecordZone: \(zoneID.zoneName)>" }
}

extension CKRecordZone {
    /// Identifies a zone: its name and its owner (``CKCurrentUserDefaultName`` for the caller).
    public typealias ID = CKRecordZoneID
}

/// Identifies a zone (`CKRecordZone.ID`; top-level, as its Objective-C name, so `NSKeyedArchiver`
/// can name it on every platform).
public final class CKRecordZoneID: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The name of every database's default zone.
    public static let defaultZoneName = ZoneID.defaultZoneName
    /// The default zone of the current user.
    public static let `default` = CKRecordZoneID(zoneName: defaultZoneName, ownerName: CKCurrentUserDefaultName)

    public let zoneName: String
    public let ownerName: String

    public init(zoneName: String = CKRecordZoneID.defaultZoneName, ownerName: String = CKCurrentUserDefaultName) {
        self.zoneName = zoneName
        self.ownerName = ownerName
    }

    /// A zone ID the server sent (no owner: the caller).
    package init(wire zoneID: ZoneID) {
        self.zoneName = zoneID.zoneName
        self.ownerName = zoneID.ownerRecordName ?? CKCurrentUserDefaultName
    }

    /// A zone ID the server sent, seen from `context` (the zone a request named): the same zone
    /// keeps the caller's form of its ID, and in the caller's own databases (`context` owned by
    /// ``CKCurrentUserDefaultName``) other zones are the caller's too, as Apple's framework names them.
    static func resolving(_ wire: ZoneID?, in context: CKRecordZoneID) -> CKRecordZoneID {
        guard let wire else { return context }
        if context.ownerName == CKCurrentUserDefaultName {
            return wire.zoneName == context.zoneName ? context : CKRecordZoneID(zoneName: wire.zoneName)
        }
        if wire.zoneName == context.zoneName, wire.ownerRecordName == nil || wire.ownerRecordName == context.ownerName { return context }
        return CKRecordZoneID(wire: wire)
    }

    /// The wire form; the caller's own zones go without an owner, as Apple's clients send them.
    package var wire: ZoneID {
        ZoneID(zoneName: zoneName, ownerRecordName: ownerName == CKCurrentUserDefaultName ? nil : ownerName)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKRecordZoneID else { return false }
        return zoneName == other.zoneName && ownerName == other.ownerName
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(zoneName)
        hasher.combine(ownerName)
        return hasher.finalize()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public static var supportsSecureCoding: Bool { true }

    /// Archived under Apple's keys (`ZoneName`, and `ownerName` — lower-case, as Apple spells it).
    public func encode(with coder: NSCoder) {
        coder.encode(zoneName as NSString, forKey: "ZoneName")
        coder.encode(ownerName as NSString, forKey: "ownerName")
        coder.encode(0, forKey: "databaseScopeKey")
    }

    public init?(coder: NSCoder) {
        guard let name = coder.string("ZoneName", "zoneName"), let owner = coder.string("ownerName") else { return nil }
        self.zoneName = name
        self.ownerName = owner
    }

    public override var description: String { "<CKRecordZoneID: \(zoneName):\(ownerName)>" }
}
