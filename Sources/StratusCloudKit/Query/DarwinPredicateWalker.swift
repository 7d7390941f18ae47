#if canImport(Darwin)
import Foundation
import StratusModel

/// On Apple platforms Foundation parses `NSPredicate(format:)` itself; this walks the tree it
/// builds (`NSCompoundPredicate`, `NSComparisonPredicate`, `NSExpression`) into the same
/// ``PredicateNode`` the Linux parser makes, so ``PredicateLowering`` applies CloudKit's rules once.
enum DarwinPredicateWalker {
    /// `predicate` as a ``PredicateNode``; `value` converts constants (`NSString`, `NSNumber`,
    /// `NSDate`, `NSArray`, CKRecord.Reference, CLLocation, …).
    /// - Throws: ``PredicateError`` for OR, block predicates and expressions CloudKit refuses.
    static func node(for predicate: NSPredicate, value: (Any) -> FieldValue?) throws(PredicateError) -> PredicateNode {
        if let compound = predicate as? NSCompoundPredicate {
            var parts: [PredicateNode] = []
            for case let part as NSPredicate in compound.subpredicates {
                parts.append(try node(for: part, value: value))
            }
            switch compound.compoundPredicateType {
            case .and:
                return .and(parts)
            case .not:
                guard parts.count == 1, let only = parts.first else { throw PredicateError("NOT takes exactly one predicate") }
                return .not(only)
            case .or:
                throw PredicateError.orUnsupported
            @unknown default:
                throw PredicateError("unsupported compound predicate: \(predicate.predicateFormat)")
            }
        }
        if let comparison = predicate as? NSComparisonPredicate {
            return .comparison(try self.comparison(comparison, value: value))
        }
        switch predicate.predicateFormat {
        case "TRUEPREDICATE": return .constant(true)
        case "FALSEPREDICATE": return .constant(false)
        default:
            throw PredicateError("CloudKit accepts only format predicates, not \(predicate.predicateFormat)")
        }
    }

    private static func comparison(_ predicate: NSComparisonPredicate, value: (Any) -> FieldValue?) throws(PredicateError) -> PredicateComparison {
        let modifier: PredicateComparison.Modifier
        switch predicate.comparisonPredicateModifier {
        case .direct: modifier = .direct
        case .any: modifier = .any
        case .all: modifier = .all
        @unknown default: throw PredicateError("unsupported modifier in \(predicate.predicateFormat)")
        }
        let op: PredicateOperator
        switch predicate.predicateOperatorType {
        case .lessThan: op = .lessThan
        case .lessThanOrEqualTo: op = .lessThanOrEqualTo
        case .greaterThan: op = .greaterThan
        case .greaterThanOrEqualTo: op = .greaterThanOrEqualTo
        case .equalTo: op = .equalTo
        case .notEqualTo: op = .notEqualTo
        case .between: op = .between
        case .in: op = .in
        case .contains: op = .contains
        case .beginsWith: op = .beginsWith
        case .matches, .like, .endsWith, .customSelector:
            throw PredicateError("CloudKit doesn't support the operator in \(predicate.predicateFormat)")
        @unknown default:
            throw PredicateError("unsupported operator in \(predicate.predicateFormat)")
        }
        return PredicateComparison(
            modifier: modifier,
            try operand(predicate.leftExpression, value: value),
            op,
            options: options(predicate.options),
            try operand(predicate.rightExpression, value: value)
        )
    }

    /// The `[cdln]` letters of comparison options (`l`: any other bit, such as locale sensitivity).
    private static func options(_ options: NSComparisonPredicate.Options) -> String {
        var letters = ""
        if options.contains(.caseInsensitive) { letters += "c" }
        if options.contains(.diacriticInsensitive) { letters += "d" }
        if options.contains(.normalized) { letters += "n" }
        if !options.subtracting([.caseInsensitive, .diacriticInsensitive, .normalized]).isEmpty { letters += "l" }
        return letters
    }

    private static func operand(_ expression: NSExpression, value: (Any) -> FieldValue?) throws(PredicateError) -> PredicateOperand {
        switch expression.expressionType {
        case .keyPath:
            return .key(expression.keyPath)
        case .evaluatedObject:
            return .evaluatedObject
        case .constantValue:
            guard let constant = expression.constantValue else {
                throw PredicateError("CloudKit can't compare with nil")
            }
            guard let converted = value(constant) else {
                throw PredicateError("CloudKit can't compare with a value of type \(type(of: constant))")
            }
            return .value(converted)
        case .aggregate:
            guard let items = expression.collection as? [NSExpression] else {
                throw PredicateError("unsupported aggregate \(expression)")
            }
            var values: [FieldValue] = []
            for item in items {
                guard case .value(let element) = try operand(item, value: value) else {
                    throw PredicateError("an aggregate {…} may hold only values: \(expression)")
                }
                if case .list = element { throw PredicateError("aggregates {…} can't be nested") }
                values.append(element)
            }
            return .value(.list(values))
        case .function:
            return try function(expression, value: value)
        default:
            throw PredicateError("CloudKit doesn't support the expression \(expression)")
        }
    }

    private static func function(_ expression: NSExpression, value: (Any) -> FieldValue?) throws(PredicateError) -> PredicateOperand {
        let arguments = expression.arguments ?? []
        switch (expression.function, arguments.count) {
        case ("distanceToLocation:fromLocation:", 2):
            return .distance(try operand(arguments[0], value: value), try operand(arguments[1], value: value))
        case ("now", 0):
            return .value(try PredicateValues.now())
        case ("castObject:toType:", 2):
            guard arguments[1].expressionType == .constantValue, arguments[1].constantValue as? String == "NSDate" else {
                throw PredicateError("CloudKit supports CAST only to \"NSDate\"")
            }
            switch try operand(arguments[0], value: value) {
            case .value(.int64(let seconds)): return .value(try PredicateValues.timestamp(sinceReferenceDate: Double(seconds)))
            case .value(.double(let seconds)): return .value(try PredicateValues.timestamp(sinceReferenceDate: seconds))
            case .value(.timestamp(let milliseconds)): return .value(.timestamp(milliseconds))
            default: throw PredicateError("CAST(…, \"NSDate\") needs a number of seconds")
            }
        default:
            throw PredicateError("CloudKit doesn't support the function \(expression.function)")
        }
    }
}
#endif
