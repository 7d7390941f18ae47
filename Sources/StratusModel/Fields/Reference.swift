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
