import StratusModel

/// What a record's field values must be beyond their type, checked before the store is touched:
/// locations on the globe, and which references name a record that must exist.
enum FieldRules {
    /// Why a field's value is not valid (`nil` when it is).
    static func invalidValue(_ value: FieldValue, named name: String) -> String? {
        switch value {
        case .location(let location):
            guard (-90...90).contains(location.latitude) else {
                return "field '\(name)': latitude \(location.latitude) is outside -90...90"
            }
            guard (-180...180).contains(location.longitude) else {
                return "field '\(name)': longitude \(location.longitude) is outside -180...180"
            }
            if let accuracy = location.horizontalAccuracy, !accuracy.isFinite {
                return "field '\(name)': horizontalAccuracy is not a number"
            }
            return nil
        case .list(let items):
            for item in items {
                if let reason = invalidValue(item, named: name) { return reason }
            }
            return nil
        default:
            return nil
        }
    }

    /// The records in the same zone that the fields' `DELETE_SELF` and `VALIDATE` references
    /// point at: each must exist when the write commits (CloudKit's `VALIDATING_REFERENCE_ERROR`).
    static func requiredTargets(of fields: [String: Field]) -> Set<String> {
        fields.referencedNames(actions: [.deleteSelf, .validate])
    }
}
