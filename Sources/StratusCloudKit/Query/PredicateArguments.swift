import Foundation
#if canImport(Darwin)
import CoreLocation
#endif
import StratusModel

// The CloudKit values a predicate's `%@` may name, as the wire compares them.

extension CKReference: PredicateValueConvertible {
    var predicateFieldValue: FieldValue { .reference(wire) }
}

extension CKRecordID: PredicateValueConvertible {
    var predicateFieldValue: FieldValue { .reference(CKReference(recordID: self, action: .none).wire) }
}

extension CKRecord: PredicateValueConvertible {
    var predicateFieldValue: FieldValue { .reference(CKReference(recordID: recordID, action: .none).wire) }
}

extension CLLocation: PredicateValueConvertible {
    var predicateFieldValue: FieldValue { .location(RecordValues.wire(self)) }
}
