import Foundation

/// A value a record field holds: strings, numbers, dates, data, references, assets, locations,
/// and arrays of these — what Apple's `CKRecordValue` admits. Numbers read back are `NSNumber`s,
/// as from Apple's framework, so `record["nights"] as? Int` and `as? Double` both work.
public protocol CKRecordValue {}

/// Apple's name for the protocol generic record accessors take.
public typealias CKRecordValueProtocol = CKRecordValue

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
public protocol CKRecordKeyValueSetting: AnyObject {
    subscript(key: String) -> (any CKRecordValue)? { get set }
    func allKeys() -> [String]
    func changedKeys() -> [String]
}
