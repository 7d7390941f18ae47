/// A record dictionary, as CloudKit Web Services sends and receives it.
///
/// The same type carries requests (`recordName`, `recordType`, `recordChangeTag`, `fields`,
/// `parent`, `createShortGUID`) and responses (plus `created`, `modified`, `deleted`, `zoneID`,
/// `pluginFields`). Share records (``ShareNames/recordType``) also carry `forRecord` (in
/// requests), `publicPermission`, `participants`, `owner`, `currentUserParticipant` and the
/// share `url` (a Stratus extra, CKShare's `url`). Tombstones in change feeds carry `recordName`, `deleted: true` and `zoneID`.
///
/// A Stratus extension a plain CKWS client never sends: an `update` or `forceUpdate` may clear
/// fields (`clearedFields`) and the parent (`clearsParent`) while leaving every field it does
/// not name as the server has it — what Apple's native framework does when an app sets a key to
/// `nil`. CKWS itself clears only by `replace`, which also erases the fields a device never held.
public struct Record: Sendable, Hashable, Codable {
    public var recordName: String?
    public var recordType: String?
    public var recordChangeTag: String?
    public var fields: [String: Field]?
    public var pluginFields: [String: Field]?
    public var created: RecordStamp?
    public var modified: RecordStamp?
    public var deleted: Bool?
    public var parent: RecordPointer?
    public var share: RecordPointer?
    public var shortGUID: String?
    public var createShortGUID: Bool?
    public var zoneID: ZoneID?
    /// In a request creating a record-hierarchy share: the root record.
    public var forRecord: RecordPointer?
    public var publicPermission: SharePermission?
    public var participants: [ShareParticipant]?
    public var owner: ShareParticipant?
    public var currentUserParticipant: ShareParticipant?
    /// The share's URL: `{server}/share/{shortGUID}`.
    public var url: String?
    /// In an update: fields to remove from the record (a Stratus extension).
    public var clearedFields: [String]?
    /// In an update: `true` removes the record's parent (a Stratus extension).
    public var clearsParent: Bool?

    public init(
        recordName: String? = nil,
        recordType: String? = nil,
        recordChangeTag: String? = nil,
        fields: [String: Field]? = nil
    ) {
        self.recordName = recordName
        self.recordType = recordType
        self.recordChangeTag = recordChangeTag
        self.fields = fields
    }

    /// A tombstone as change feeds report it: exactly `{recordName, deleted: true, zoneID}`.
    public static func tombstone(recordName: String, zoneID: ZoneID) -> Record {
        var record = Record(recordName: recordName)
        record.deleted = true
        record.zoneID = zoneID
        return record
    }
}
