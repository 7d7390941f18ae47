/// A reference field value: Apple's Reference dictionary.
public struct Reference: Sendable, Hashable, Codable {
    /// What happens to the source record when the target is deleted.
    public enum Action: String, Sendable, Hashable, Codable {
        case none = "NONE"
        case deleteSelf = "DELETE_SELF"
        case validate = "VALIDATE"
    }

    public var recordName: String
    public var zoneID: ZoneID?
    public var action: Action?

    public init(recordName: String, zoneID: ZoneID? = nil, action: Action? = Action.none) {
        self.recordName = recordName
        self.zoneID = zoneID
        self.action = action
    }
}

extension Dictionary where Key == String, Value == Field {
    /// The names of the records these fields' references (lists included) point at with one of
    /// `actions` (a missing action is `NONE`).
    public func referencedNames(actions: Set<Reference.Action>) -> Set<String> {
        var names: Set<String> = []
        func collect(_ value: FieldValue) {
            switch value {
            case .reference(let reference) where actions.contains(reference.action ?? .none):
                names.insert(reference.recordName)
            case .list(let items):
                items.forEach(collect)
            default:
                break
            }
        }
        values.forEach { collect($0.value) }
        return names
    }
}
