import Foundation
import StratusModel

/// A predicate argument beyond Foundation's value types: CKRecord.Reference, CKRecord.ID and
/// CKRecord (a reference to the record) and CLLocation (a location) conform, each saying what it
/// compares as on the wire.
protocol PredicateValueConvertible {
    /// The value this argument compares as.
    var predicateFieldValue: FieldValue { get }
}

/// Predicate arguments and constants as wire values: what `%@`, `%K`, `%d` and `%f` substitute,
/// dates, and the element type of a list.
enum PredicateValues {
    /// The default conversion of a `%@` argument (and of a constant in Foundation's own predicate
    /// tree): strings, numbers (`Bool` as INT64 0/1, as CloudKit stores booleans), `Date`, `Data`,
    /// arrays of those, StratusModel's `Location`, `Reference` and `FieldValue`, and any
    /// ``PredicateValueConvertible``. `nil` for anything else (CloudKit refuses other classes).
    static func fieldValue(of argument: Any) -> FieldValue? {
        if let convertible = argument as? any PredicateValueConvertible { return convertible.predicateFieldValue }
        if let number = nsNumber(argument) { return fieldValue(of: number) }
        if let text = argument as? String { return .string(text) }
        if let number = integer(argument) { return .int64(number) }
        if let number = exactly(argument, Double.self) { return .double(number) }
        if let number = exactly(argument, Float.self) { return .double(Double(number)) }
        if let number = exactly(argument, CGFloat.self) { return .double(Double(number)) }
        if let date = argument as? Date { return try? timestamp(of: date) }
        if let date = argument as? NSDate { return try? timestamp(sinceReferenceDate: date.timeIntervalSinceReferenceDate) }
        if let data = argument as? Data { return .bytes(data) }
        if let location = argument as? Location { return .location(location) }
        if let reference = argument as? Reference { return .reference(reference) }
        if let value = argument as? FieldValue { return value }
        if let items = argument as? [Any] {
            var values: [FieldValue] = []
            for item in items {
                guard let value = fieldValue(of: item) else { return nil }
                if case .list = value { return nil }
                values.append(value)
            }
            return .list(values)
        }
        return nil
    }

    /// A `%d`-style argument: a Swift integer, a `Bool` (0 or 1) or an integral NSNumber.
    static func integer(_ argument: Any) -> Int64? {
        if let number = nsNumber(argument) {
            guard case .int64(let value)? = fieldValue(of: number) else { return nil }
            return value
        }
        if let value = exactly(argument, Bool.self) { return value ? 1 : 0 }
        if let value = exactly(argument, Int.self) { return Int64(value) }
        if let value = exactly(argument, Int8.self) { return Int64(value) }
        if let value = exactly(argument, Int16.self) { return Int64(value) }
        if let value = exactly(argument, Int32.self) { return Int64(value) }
        if let value = exactly(argument, Int64.self) { return value }
        if let value = exactly(argument, UInt.self) { return Int64(exactly: value) }
        if let value = exactly(argument, UInt8.self) { return Int64(value) }
        if let value = exactly(argument, UInt16.self) { return Int64(value) }
        if let value = exactly(argument, UInt32.self) { return Int64(value) }
        if let value = exactly(argument, UInt64.self) { return Int64(exactly: value) }
        return nil
    }

    /// A `%f`-style argument: any Swift or Foundation number.
    static func double(_ argument: Any) -> Double? {
        if let number = nsNumber(argument) { return number.doubleValue }
        if let value = exactly(argument, Double.self) { return value }
        if let value = exactly(argument, Float.self) { return Double(value) }
        if let value = exactly(argument, CGFloat.self) { return Double(value) }
        return integer(argument).map(Double.init)
    }

    /// A `%K` argument: a key name.
    static func key(_ argument: Any) -> String? {
        if let key = argument as? String { return key }
        return (argument as? NSString).map { String(describing: $0) }
    }

    /// `date` as a TIMESTAMP (milliseconds since 1970).
    /// - Throws: ``PredicateError`` for a date too far out to count in milliseconds.
    static func timestamp(of date: Date) throws(PredicateError) -> FieldValue {
        guard let milliseconds = Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) else {
            throw PredicateError("the date \(date) is out of CloudKit's range")
        }
        return .timestamp(milliseconds)
    }

    /// Seconds since 2001-01-01 (a `CAST(…, "NSDate")` constant) as a TIMESTAMP.
    /// - Throws: ``PredicateError`` for a date out of range.
    static func timestamp(sinceReferenceDate seconds: Double) throws(PredicateError) -> FieldValue {
        guard seconds.isFinite else { throw PredicateError("CAST(…, \"NSDate\") needs a finite number of seconds") }
        return try timestamp(of: Date(timeIntervalSinceReferenceDate: seconds))
    }

    /// `now()`: the current time, read when the predicate is parsed.
    static func now() throws(PredicateError) -> FieldValue {
        try timestamp(of: Date())
    }

    /// A list value as a field whose list type matches its elements (`STRING_LIST` for `{'a'}`,
    /// `REFERENCE_LIST` for record IDs); integers mixed with doubles become a `DOUBLE_LIST`, and an
    /// empty list is a `STRING_LIST`. `nil` when the elements don't share a type.
    static func listField(_ items: [FieldValue]) -> Field? {
        let types = Set(items.map { Field($0).type })
        if types.isEmpty { return Field(.list([]), type: .stringList) }
        if types == [.int64, .double] {
            let doubles = items.map { item -> FieldValue in
                if case .int64(let number) = item { return .double(Double(number)) }
                return item
            }
            return Field(.list(doubles), type: .doubleList)
        }
        guard types.count == 1, let type = types.first, let listType = type.listType else { return nil }
        return Field(.list(items), type: listType)
    }

    /// The tokens with each `%` specifier replaced by its argument, converted.
    /// - Throws: ``PredicateError`` for too few arguments or one of a type its specifier can't take.
    static func substitute(
        _ tokens: [PredicateToken], arguments: [Any], value: (Any) -> FieldValue?
    ) throws(PredicateError) -> [PredicateToken] {
        var next = 0
        var result = tokens
        for (index, token) in tokens.enumerated() {
            guard case .argument(let specifier) = token.kind else { continue }
            guard next < arguments.count else {
                throw PredicateError("the format has more % specifiers than the \(arguments.count) arguments given")
            }
            next += 1
            guard let argument = unwrapped(arguments[next - 1]) else {
                throw PredicateError("argument \(next) is nil: CloudKit can't compare with nil")
            }
            let typeName = String(describing: type(of: argument))
            switch specifier {
            case .object:
                guard let converted = value(argument) else {
                    throw PredicateError("CloudKit can't compare with a value of type \(typeName) (argument \(next))")
                }
                result[index].kind = .value(converted)
            case .key:
                guard let key = key(argument) else { throw PredicateError("%K needs a String key, not \(typeName) (argument \(next))") }
                result[index].kind = .key(key)
            case .integer:
                guard let number = integer(argument) else { throw PredicateError("%d needs an integer, not \(typeName) (argument \(next))") }
                result[index].kind = .value(.int64(number))
            case .floatingPoint:
                guard let number = double(argument), number.isFinite else {
                    throw PredicateError("%f needs a finite number, not \(typeName) (argument \(next))")
                }
                result[index].kind = .value(.double(number))
            }
        }
        return result
    }

    /// `argument` without Optional wrapping (an `Any...` parameter accepts optionals); `nil` for none.
    fileprivate static func unwrapped(_ argument: Any) -> Any? {
        guard let optional = argument as? any OptionalArgument else { return argument }
        return optional.wrappedArgument
    }

    // MARK: - Numbers

    /// The argument when it is a Foundation number object (not a Swift number that bridges to one).
    private static func nsNumber(_ argument: Any) -> NSNumber? {
        guard type(of: argument) is NSNumber.Type else { return nil }
        return argument as? NSNumber
    }

    /// A Foundation number by the C type it holds: booleans and integers INT64, floats DOUBLE.
    private static func fieldValue(of number: NSNumber) -> FieldValue? {
        switch String(cString: number.objCType) {
        case "f", "d": return .double(number.doubleValue)
        case "Q", "L": return Int64(exactly: number.uint64Value).map(FieldValue.int64)
        default: return .int64(number.int64Value)
        }
    }

    /// `argument` as a `T` only when it is exactly a `T`, so `1` never passes for `true`.
    private static func exactly<T>(_ argument: Any, _ type: T.Type) -> T? {
        guard Swift.type(of: argument) == type else { return nil }
        return argument as? T
    }
}

/// Lets ``PredicateValues`` see through an Optional held in an `Any`.
private protocol OptionalArgument {
    var wrappedArgument: Any? { get }
}

extension Optional: OptionalArgument {
    fileprivate var wrappedArgument: Any? { flatMap { PredicateValues.unwrapped($0) } }
}
