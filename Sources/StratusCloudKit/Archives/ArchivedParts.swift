import Foundation

// The parts of Apple's archives that have no class of their own here: a container's ID, a
// record's value stores and its encrypted values. Read when an archive Apple's framework wrote
// is decoded; written only where an archive written here names them.

/// Apple's `CKContainerID` (a share's and a share metadata's container).
final class ArchivedContainerID: NSObject, NSSecureCoding {
    let containerIdentifier: String?

    init(containerIdentifier: String) { self.containerIdentifier = containerIdentifier }

    static var supportsSecureCoding: Bool { true }

    func encode(with coder: NSCoder) {
        if let containerIdentifier { coder.encode(containerIdentifier as NSString, forKey: "ContainerIdentifier") }
        coder.encode(Int64(2), forKey: "Environment")
    }

    init?(coder: NSCoder) {
        containerIdentifier = coder.string("ContainerIdentifier")
    }
}

/// Apple's `CKRecordValueStore`: a record's values, the values before its unsaved edits, and
/// which keys were edited.
class ArchivedValueStore: NSObject, NSSecureCoding {
    /// The classes a record value may be archived as (Apple's value classes and their containers).
    static let valueClasses: [AnyClass] = [
        NSDictionary.self, NSMutableDictionary.self, NSArray.self, NSMutableArray.self, NSSet.self, NSMutableSet.self,
        NSString.self, NSNumber.self, NSDate.self, NSData.self, NSNull.self, NSURL.self,
        CKReference.self, CKAsset.self, CLLocation.self, ArchivedEncryptedValue.self,
    ]

    let values: [String: any CKRecordValue]
    let originalValues: [String: (any CKRecordValue)?]
    let changedKeys: Set<String>

    init(stored: (values: [String: any CKRecordValue], original: [String: (any CKRecordValue)?], changed: Set<String>)) {
        (values, originalValues, changedKeys) = stored
    }

    class var supportsSecureCoding: Bool { true }

    /// Apple's keys: `RecordValues`, `OriginalValues` (`NSNull` for a key that had no value),
    /// `ChangedKeys`; each value as its Foundation class archives it.
    func encode(with coder: NSCoder) {
        let recordValues = NSMutableDictionary()
        for (key, value) in values { recordValues[key as NSString] = Self.archivable(value) }
        let original = NSMutableDictionary()
        for (key, value) in originalValues { original[key as NSString] = value.map(Self.archivable) ?? NSNull() }
        coder.encode(recordValues, forKey: "RecordValues")
        coder.encode(original, forKey: "OriginalValues")
        coder.encode(NSMutableSet(array: changedKeys.map { $0 as NSString }), forKey: "ChangedKeys")
    }

    required init?(coder: NSCoder) {
        (values, originalValues, changedKeys) = Self.decodeValues(from: coder)
    }

    /// A record value as the Foundation object that archives it.
    static func archivable(_ value: Any) -> Any {
        switch value {
        case let text as String: return text as NSString
        case let date as Date: return date as NSDate
        case let data as Data: return data as NSData
        case let list as [Any]: return NSArray(array: list.map(archivable))
        default: return value
        }
    }

    /// The values, original values and changed keys under Apple's keys, in `coder`'s current
    /// object (a value store, or a record archived in Apple's earlier flat layout).
    static func decodeValues(from coder: NSCoder) -> (values: [String: any CKRecordValue], original: [String: (any CKRecordValue)?], changed: Set<String>) {
        func dictionary(_ key: String) -> [String: Any] {
            guard let dictionary = coder.object(ofClasses: valueClasses, key) as? NSDictionary else { return [:] }
            var entries: [String: Any] = [:]
            for case let (name as String, value) in dictionary { entries[name] = value }
            return entries
        }
        var values: [String: any CKRecordValue] = [:]
        for (key, value) in dictionary("RecordValues") {
            if let converted = recordValue(value) { values[key] = converted }
        }
        var original: [String: (any CKRecordValue)?] = [:]
        for (key, value) in dictionary("OriginalValues") { original[key] = recordValue(value) }
        let changed = (coder.object(ofClasses: [NSSet.self, NSMutableSet.self, NSString.self], "ChangedKeys") as? NSSet)?
            .compactMap { $0 as? String } ?? []
        return (values, original, Set(changed))
    }

    /// A value as a record keeps it; `nil` for `NSNull` and for encrypted values (their payload
    /// is Apple's private encoding).
    static func recordValue(_ value: Any) -> (any CKRecordValue)? {
        switch value {
        case is NSNull, is ArchivedEncryptedValue: return nil
        case let text as String: return text
        case let text as NSString: return text as String
        case let number as NSNumber: return number
        case let date as Date: return date
        case let date as NSDate: return date as Date
        case let data as Data: return data
        case let data as NSData: return data as Data
        case let reference as CKReference: return reference
        case let asset as CKAsset: return asset
        case let location as CLLocation: return location
        case let list as NSArray:
            let items = list.compactMap { recordValue($0) }
            if let strings = items as? [String] { return strings }
            if let dates = items as? [Date] { return dates }
            if let data = items as? [Data] { return data }
            if let numbers = items as? [NSNumber] { return numbers }
            if let references = items as? [CKReference] { return references }
            if let assets = items as? [CKAsset] { return assets }
            if let locations = items as? [CLLocation] { return locations }
            return nil
        default: return nil
        }
    }
}

/// Apple's `CKEncryptedRecordValueStore`: the same keys, its values encrypted.
final class ArchivedEncryptedValueStore: ArchivedValueStore {}

/// An encrypted value in an archive of Apple's (`CKEncryptedData` and its subclasses): kept as
/// the bytes it carries, which no record here reads.
final class ArchivedEncryptedValue: NSObject, NSSecureCoding {
    let data: Data?

    static var supportsSecureCoding: Bool { true }

    func encode(with coder: NSCoder) {
        if let data { coder.encode(data as NSData, forKey: "EncryptedData") }
    }

    init?(coder: NSCoder) {
        data = coder.data("EncryptedData")
    }
}

/// A person's name in an archive: Foundation's `NSPersonNameComponents` as Apple's Foundation
/// archives it (its parts inside `NS.nameComponentsPrivate`, an `_NSPersonNameComponentsData`)
/// or flat (`NS.givenName`, …, as Linux's Foundation does). Read under those class names for one
/// decode only (the unarchiver's own mapping), so no other archive's names change.
final class ArchivedNameComponents: NSObject, NSSecureCoding {
    private static var keys: [(String, WritableKeyPath<PersonNameComponents, String?>)] {[
        ("NS.givenName", \.givenName), ("NS.familyName", \.familyName), ("NS.middleName", \.middleName),
        ("NS.namePrefix", \.namePrefix), ("NS.nameSuffix", \.nameSuffix), ("NS.nickname", \.nickname),
    ]}

    let components: PersonNameComponents

    init(_ components: PersonNameComponents) { self.components = components }

    static var supportsSecureCoding: Bool { true }

    func encode(with coder: NSCoder) {
        for (key, path) in Self.keys {
            if let part = components[keyPath: path] { coder.encode(part as NSString, forKey: key) }
        }
    }

    init?(coder: NSCoder) {
        if let nested = coder.object(ArchivedNameComponents.self, "NS.nameComponentsPrivate") {
            components = nested.components
            return
        }
        var components = PersonNameComponents()
        for (key, path) in Self.keys { components[keyPath: path] = coder.string(key) }
        self.components = components
    }

    /// The name under `key`, whichever way it was archived.
    static func decode(from coder: NSCoder, forKey key: String) -> PersonNameComponents? {
        guard coder.containsValue(forKey: key) else { return nil }
        let unarchiver = coder as? NSKeyedUnarchiver
        let names = ["NSPersonNameComponents", "_NSPersonNameComponentsData", "StratusCloudKit.ArchivedNameComponents"]
        for name in names { unarchiver?.setClass(ArchivedNameComponents.self, forClassName: name) }
        defer { for name in names { unarchiver?.setClass(nil, forClassName: name) } }
        return coder.object(ArchivedNameComponents.self, key)?.components
    }
}
