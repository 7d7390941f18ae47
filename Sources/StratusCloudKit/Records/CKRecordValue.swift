import Foundation

/// A value a record field holds: strings, numbers, dates, data, references, assets, locations,
/// and arrays of these — what Apple's `CKRecordValue` admits. Apple imports its Objective-C
/// protocol under this name and spells it `CKRecordValue` (a typealias); Swift's own value
/// types conform too, so `record["title"] = "Lisbon"` and `record["nights"] = 4` compile as on
/// Apple. A record keeps numbers and booleans as `NSNumber`s, as Apple's does, so
/// `record["nights"] as? Int64` and `as? Double` both read them at once.
public protocol __CKRecordObjCValue {}

/// Apple's name for a record field's value.
public typealias CKRecordValue = __CKRecordObjCValue

/// Apple's name for the protocol the generic record accessors take (one protocol here: every
/// value that can be stored can be read generically).
public typealias CKRecordValueProtocol = __CKRecordObjCValue

extension String: CKRecordValue {}
extension NSString: CKRecordValue {}
extension Int: CKRecordValue {}
extension Int8: CKRecordValue {}
extension Int16: CKRecordValue {}
extension Int32: CKRecordValue {}
extension Int64: CKRecordValue {}
extension UInt: CKRecordValue {}
extension UInt8: CKRecordValue {}
extension UInt16: CKRecordValue {}
extension UInt32: CKRecordValue {}
extension UInt64: CKRecordValue {}
extension Double: CKRecordValue {}
extension Float: CKRecordValue {}
extension Bool: CKRecordValue {}
extension NSNumber: CKRecordValue {}
extension Date: CKRecordValue {}
extension NSDate: CKRecordValue {}
extension Data: CKRecordValue {}
extension NSData: CKRecordValue {}
extension NSArray: CKRecordValue {}
extension Array: CKRecordValue where Element: CKRecordValue {}

/// Setting and reading a record's fields by key (`CKRecord` and its `encryptedValues`).
public protocol CKRecordKeyValueSetting: NSObjectProtocol {
    func object(forKey key: String) -> (any __CKRecordObjCValue)?
    func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: String)
    subscript(key: String) -> (any __CKRecordObjCValue)? { get set }
    func allKeys() -> [String]
    func changedKeys() -> [String]
}

extension CKRecordKeyValueSetting {
    /// A field's value as `T` (`let title: String? = record["title"]`); setting it sets the field.
    public subscript<T: CKRecordValueProtocol>(key: CKRecord.FieldKey) -> T? {
        get { object(forKey: key) as? T }
        set { setObject(newValue, forKey: key) }
    }
}
