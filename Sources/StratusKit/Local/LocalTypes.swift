import StratusModel

/// Identifies a mirrored record: its database scope, its zone (with the owner) and its name.
public struct RecordKey: Sendable, Hashable, Codable, CustomStringConvertible {
    public var scope: DatabaseScope
    public var zoneName: String
    /// The zone's owner (the signed-in user for private records, the sharer for shared ones).
    public var owner: String
    public var recordName: String

    public init(scope: DatabaseScope, zoneID: ZoneID, recordName: String) {
        self.scope = scope
        self.zoneName = zoneID.zoneName
        self.owner = zoneID.ownerRecordName ?? ZoneID.currentUserOwnerName
        self.recordName = recordName
    }

    public var zoneID: ZoneID { ZoneID(zoneName: zoneName, ownerRecordName: owner) }
    public var description: String { "\(scope.rawValue)/\(owner)/\(zoneName)/\(recordName)" }
}

/// A record as a device's store holds it: the app's values and what the server last said.
public struct LocalRecord: Sendable, Hashable {
    public var key: RecordKey
    public var recordType: String
    public var fields: [String: Field]
    public var parentName: String?
    /// The change tag of the server version this copy is based on; `nil` until first uploaded.
    public var changeTag: String?
    /// The server's last version (for conflicts, reverts and share details).
    public var serverRecord: Record?

    public init(key: RecordKey, recordType: String, fields: [String: Field], parentName: String? = nil) {
        self.key = key
        self.recordType = recordType
        self.fields = fields
        self.parentName = parentName
    }
}

/// Who made a local change, as persistent history records it (NSPersistentHistoryTransaction's
/// author). Changes imported from the server are never exported again.
public struct TransactionAuthor: Sendable, Hashable, Codable, RawRepresentable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The app itself.
    public static let app = TransactionAuthor(rawValue: "app")
    /// The sync engine importing server changes.
    public static let syncImport = TransactionAuthor(rawValue: "NSCloudKitMirroringDelegate.import")
    /// Another process writing to the same store, such as a widget.
    public static let widget = TransactionAuthor(rawValue: "widget")
    /// The sync engine queueing a zone's records for upload again (its zone was purged or reset
    /// on the server): exported like the app's own changes.
    public static let syncReupload = TransactionAuthor(rawValue: "NSCloudKitMirroringDelegate.reupload")
}

/// One entry of a store's persistent history.
public struct HistoryEntry: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case save
        case delete
    }

    public var id: Int64
    public var key: RecordKey
    public var kind: Kind
    /// The fields the change set (saves).
    public var changedFields: [String]
    public var author: TransactionAuthor
    public var exported: Bool
}

/// A local change still to reach the server: the latest kind of change of one record, and the
/// last history entry it covers.
public struct PendingExport: Sendable, Hashable {
    public var key: RecordKey
    public var kind: HistoryEntry.Kind
    public var throughHistoryID: Int64
}

/// How local record types and fields are named on the server.
public enum RecordNaming: Sendable, Hashable {
    /// As the app names them.
    case plain
    /// NSPersistentCloudKitContainer's convention: `CD_` before every record type and field, and a
    /// `CD_entityName` field holding the concrete entity on every record.
    case coreData

    /// The STRING field NSPersistentCloudKitContainer writes on every record: the concrete entity
    /// (the record type names the root entity of its inheritance chain). Bookkeeping, not an
    /// attribute: it is never a local field.
    public static let entityNameField = "CD_entityName"

    /// Whether a server field is the naming's bookkeeping (`CD_entityName` with Core Data naming)
    /// rather than one of the app's fields.
    public func isBookkeeping(_ serverFieldName: String) -> Bool {
        self == .coreData && serverFieldName == Self.entityNameField
    }

    /// A local record type or field name as the server spells it.
    public func serverName(_ name: String) -> String {
        self == .coreData ? "CD_" + name : name
    }

    /// A server record type or field name as the app spells it.
    public func localName(_ name: String) -> String {
        guard self == .coreData, name.hasPrefix("CD_") else { return name }
        return String(name.dropFirst(3))
    }
}

/// Someone a share is for — the account with this email address — and what they may do
/// (`SimulatedDevice.Invitee`). Kept in the store with a share's move before the share exists.
public struct ShareInvitee: Sendable, Hashable, Codable {
    /// What a participant may do, as CloudKit's `CKShare.ParticipantPermission` says it.
    public enum Permission: String, Sendable, Hashable, Codable {
        case none, readOnly, readWrite
    }

    public var email: String
    public var permission: Permission

    public init(email: String, permission: Permission) {
        self.email = email
        self.permission = permission
    }

    /// The account with this email address, with this permission.
    public static func invite(email: String, permission: Permission) -> ShareInvitee {
        ShareInvitee(email: email, permission: permission)
    }
}
