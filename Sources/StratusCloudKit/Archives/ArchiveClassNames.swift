import Foundation

/// Apple's archived class names and the classes that read them here: an archive Apple's
/// framework wrote (`$classname` `CKRecord`, `CKServerChangeToken`, …) decodes into these
/// classes. Registered once, when the program loads (`StratusCloudKitLoader`'s constructor calls
/// ``registerArchiveClassNames()``). Archives written here use Apple's keys but name the classes
/// module-qualified (`StratusCloudKit.CKRecord`): Linux's Foundation ignores
/// `NSKeyedArchiver.setClassName(_:for:)`, so they decode wherever StratusCloudKit is linked.
enum ArchiveClassNames {
    /// Every class whose archives Apple's framework writes, by Apple's name.
    static let classes: [(name: String, type: AnyClass)] = [
        ("CKRecord", CKRecord.self),
        ("CKShare", CKShare.self),
        ("CKRecordID", CKRecordID.self),
        ("CKRecordZoneID", CKRecordZoneID.self),
        ("CKRecordZone", CKRecordZone.self),
        ("CKReference", CKReference.self),
        ("CKAsset", CKAsset.self),
        ("CKServerChangeToken", CKServerChangeToken.self),
        ("CKQueryCursor", CKQueryCursor.self),
        ("CKQuery", CKQuery.self),
        ("CKShareParticipant", CKShareParticipant.self),
        ("CKShareMetadata", CKShareMetadata.self),
        ("CKUserIdentity", CKUserIdentity.self),
        ("CKUserIdentityLookupInfo", CKUserIdentityLookupInfo.self),
        ("CKContainerID", ArchivedContainerID.self),
        ("CKRecordValueStore", ArchivedValueStore.self),
        ("CKEncryptedRecordValueStore", ArchivedEncryptedValueStore.self),
        ("CKSubscription", CKSubscription.self),
        ("CKQuerySubscription", CKQuerySubscription.self),
        ("CKRecordZoneSubscription", CKRecordZoneSubscription.self),
        ("CKDatabaseSubscription", CKDatabaseSubscription.self),
        ("CKNotificationInfo", CKNotificationInfo.self),
        ("CKNotificationID", CKNotificationID.self),
        ("CKOperationGroup", CKOperationGroup.self),
        ("CLLocation", CLLocation.self),
    ]

    /// The classes of encrypted values (their payload is Apple's private encoding): read as
    /// ``ArchivedEncryptedValue``, which no record keeps.
    static let encryptedValueNames = [
        "CKEncryptedData", "CKInternalEncryptedData", "CKEncryptedString", "CKEncryptedLongLong", "CKEncryptedDouble",
        "CKEncryptedDate", "CKEncryptedReference", "CKEncryptedLocation", "CKEncryptedStringArray", "CKEncryptedLongLongArray",
        "CKEncryptedDoubleArray", "CKEncryptedDateArray", "CKEncryptedLocationArray", "CKEncryptedEmptyArray",
    ]

    static func register() {
        for entry in classes { NSKeyedUnarchiver.setClass(entry.type, forClassName: entry.name) }
        for name in encryptedValueNames { NSKeyedUnarchiver.setClass(ArchivedEncryptedValue.self, forClassName: name) }
    }
}

/// Called once by `StratusCloudKitLoader`'s constructor, before `main`: registers Apple's
/// archived class names (``ArchiveClassNames``). Not for apps to call.
@_cdecl("stratus_cloudkit_register_archive_class_names")
public func registerArchiveClassNames() {
    ArchiveClassNames.register()
}
