/// The `created` / `modified` dictionary of a record: when, by whom, from which device.
public struct RecordStamp: Sendable, Hashable, Codable {
    /// Milliseconds since 1970-01-01.
    public var timestamp: Int64
    public var userRecordName: String?
    public var deviceID: String?

    public init(timestamp: Int64, userRecordName: String?, deviceID: String? = nil) {
        self.timestamp = timestamp
        self.userRecordName = userRecordName
        self.deviceID = deviceID
    }
}

/// A `{ "recordName" }` pointer, as in `parent` and `forRecord`.
public struct RecordPointer: Sendable, Hashable, Codable {
    public var recordName: String
    public var recordChangeTag: String?
    public var zoneID: ZoneID?

    public init(recordName: String, recordChangeTag: String? = nil, zoneID: ZoneID? = nil) {
        self.recordName = recordName
        self.recordChangeTag = recordChangeTag
        self.zoneID = zoneID
    }
}
