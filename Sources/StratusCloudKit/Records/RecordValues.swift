import Foundation
#if canImport(Darwin)
import CoreLocation
#endif
import StratusModel

/// Converts between the values apps put in records (``CKRecordValue``) and the wire's typed
/// fields — the one rule for both directions (records, query arguments, desired keys).
enum RecordValues {
    /// The wire field for an app's value; `nil` for a type CloudKit does not store. An asset
    /// must already have its server value (``CKDatabase`` uploads before saving).
    static func field(from value: Any) -> Field? {
        if let list = list(from: value) {
            var items: [FieldValue] = []
            items.reserveCapacity(list.count)
            for element in list {
                guard let item = scalar(from: element) else { return nil }
                items.append(item.value)
            }
            let elementType = items.first.map { Field($0).type } ?? .string
            var field = Field(.list(items), type: elementType.listType ?? .stringList)
            if elementType == .timestamp { field.exactDates = list.compactMap { ($0 as? Date)?.timeIntervalSinceReferenceDate } }
            return field
        }
        return scalar(from: value)
    }

    /// A scalar argument of a query (or an element of a list): its wire value.
    static func fieldValue(from value: Any) -> FieldValue? { field(from: value)?.value }

    private static func list(from value: Any) -> [Any]? {
        if value is String || value is Data { return nil }
        if let array = value as? [Any] { return array }
        if let array = value as? NSArray { return array.map { $0 } }
        return nil
    }

    private static func scalar(from value: Any) -> Field? {
        switch value {
        case let text as String: return .string(text)
        case let text as NSString: return .string(text as String)
        case let flag as Bool where !(value is NSNumber): return .int64(flag ? 1 : 0)
        case let number as NSNumber: return number.isFloatingPoint ? .double(number.doubleValue) : .int64(number.int64Value)
        case let number as Int: return .int64(Int64(number))
        case let number as Int64: return .int64(number)
        case let number as Int32: return .int64(Int64(number))
        case let number as Int16: return .int64(Int64(number))
        case let number as Int8: return .int64(Int64(number))
        case let number as UInt: return .int64(Int64(clamping: number))
        case let number as UInt64: return .int64(Int64(clamping: number))
        case let number as UInt32: return .int64(Int64(number))
        case let number as UInt16: return .int64(Int64(number))
        case let number as UInt8: return .int64(Int64(number))
        case let number as Double: return .double(number)
        case let number as Float: return .double(Double(number))
        case let date as Date:
            // CKWS's milliseconds, and the date to the last bit for clients that ask for it.
            var field = Field.timestamp(milliseconds: milliseconds(date))
            field.exactDates = [date.timeIntervalSinceReferenceDate]
            return field
        case let data as Data: return .bytes(data)
        case let reference as CKRecord.Reference: return Field(.reference(reference.wire), type: .reference)
        case let record as CKRecord: return Field(.reference(CKRecord.Reference(record: record, action: .none).wire), type: .reference)
        case let recordID as CKRecord.ID: return Field(.reference(CKRecord.Reference(recordID: recordID, action: .none).wire), type: .reference)
        case let location as CLLocation: return Field(.location(wire(location)), type: .location)
        case let asset as CKAsset:
            guard let stored = asset.stored else { return nil }
            return Field(.asset(stored), type: .asset)
        default: return nil
        }
    }

    /// The app's value for a wire field (numbers as `NSNumber`, lists as typed Swift arrays).
    static func value(of field: Field, in zoneID: CKRecordZone.ID, assets: [String: URL] = [:]) -> (any CKRecordValue)? {
        guard case .list(let items) = field.value else {
            if case .timestamp(let ms) = field.value, let exact = field.exactDates?.first { return date(ms, exact: exact) }
            return scalar(field.value, type: field.type, zoneID: zoneID, assets: assets)
        }
        let element = field.type.elementType ?? .string
        if element == .timestamp, let exact = field.exactDates, exact.count == items.count {
            return zip(items, exact).compactMap { item, exact -> Date? in
                guard case .timestamp(let ms) = item else { return nil }
                return date(ms, exact: exact)
            }
        }
        let values = items.compactMap { scalar($0, type: element, zoneID: zoneID, assets: assets) }
        switch element {
        case .string: return values.compactMap { $0 as? String }
        case .int64, .double: return values.compactMap { $0 as? NSNumber }
        case .timestamp: return values.compactMap { $0 as? Date }
        case .bytes, .encryptedBytes: return values.compactMap { $0 as? Data }
        case .reference: return values.compactMap { $0 as? CKRecord.Reference }
        case .asset, .assetID: return values.compactMap { $0 as? CKAsset }
        case .location: return values.compactMap { $0 as? CLLocation }
        default: return values.compactMap { $0 as? String }
        }
    }

    private static func scalar(_ value: FieldValue, type: FieldType, zoneID: CKRecordZone.ID, assets: [String: URL]) -> (any CKRecordValue)? {
        switch value {
        case .string(let text): return text
        case .int64(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .timestamp(let ms): return Date(timeIntervalSince1970: Double(ms) / 1000)
        case .bytes(let data): return data
        case .location(let location):
            return CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude),
                altitude: location.altitude ?? 0, horizontalAccuracy: location.horizontalAccuracy ?? 0,
                verticalAccuracy: location.verticalAccuracy ?? -1, course: location.course ?? -1, speed: location.speed ?? -1,
                timestamp: location.timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
            )
        case .reference(let reference): return CKRecord.Reference(wire: reference, zoneID: zoneID)
        case .asset(let asset): return CKAsset(fileURL: asset.fileChecksum.flatMap { assets[$0] }, stored: asset)
        case .list: return nil
        }
    }

    /// A value as a record keeps it: Swift numbers and booleans (and arrays of them) as `NSNumber`.
    /// (`value is NSNumber` holds for a Swift `Int` or `Bool` on Linux, where it bridges, so each
    /// number is made an `NSNumber` object here: `as? Int64` reads only those.)
    static func normalized(_ value: any CKRecordValue) -> any CKRecordValue {
        if let number = number(value) { return number }
        if let list = value as? [Any], !list.isEmpty, list.allSatisfy({ number($0) != nil }) { return list.compactMap(number) }
        return value
    }

    private static func number(_ value: Any) -> NSNumber? {
        switch value {
        case let number as NSNumber: number
        case let flag as Bool: NSNumber(value: flag)
        case let number as Int: NSNumber(value: number)
        case let number as Int64: NSNumber(value: number)
        case let number as Int32: NSNumber(value: number)
        case let number as Int16: NSNumber(value: number)
        case let number as Int8: NSNumber(value: number)
        case let number as UInt: NSNumber(value: number)
        case let number as UInt64: NSNumber(value: number)
        case let number as UInt32: NSNumber(value: number)
        case let number as UInt16: NSNumber(value: number)
        case let number as UInt8: NSNumber(value: number)
        case let number as Double: NSNumber(value: number)
        case let number as Float: NSNumber(value: number)
        default: nil
        }
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The date a timestamp field holds: its exact value where that rounds to the field's
    /// milliseconds (a CKWS client that rewrote the field left a stale one: then the milliseconds).
    static func date(_ milliseconds: Int64, exact: Double) -> Date {
        let precise = Date(timeIntervalSinceReferenceDate: exact)
        guard Self.milliseconds(precise) == milliseconds else { return Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
        return precise
    }

    static func wire(_ location: CLLocation) -> Location {
        var wire = Location(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
        wire.altitude = location.altitude
        wire.horizontalAccuracy = location.horizontalAccuracy
        wire.verticalAccuracy = location.verticalAccuracy
        wire.course = location.course
        wire.speed = location.speed
        wire.timestamp = milliseconds(location.timestamp)
        return wire
    }
}

extension NSNumber {
    /// Whether the number holds a floating-point value (its Objective-C type is `d` or `f`).
    var isFloatingPoint: Bool {
        let type = String(cString: objCType)
        return type == "d" || type == "f"
    }
}
