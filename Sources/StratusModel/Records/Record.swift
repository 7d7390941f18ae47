/// A record dictionary, as CloudKit Web Services sends and receives it.
///
/// The same type carries requests (`recordName`, `recordType`, `recordChangeTag`, `fields`,
/// `parent`, `createShortGUID`) and responses (plus `created`, `modified`, `deleted`, `zoneID`,
/// `pluginFields`). Tombstones in change feeds carry `recordName`, `deleted: true` and `zoneID`.
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

    /// A tombstone as change feeds report it.
    public static func tombstone(recordName: String, recordType: String?, zoneID: ZoneID) -> Record {
        var record = Record(recordName: recordName, recordType: recordType)
        record.deleted = true
        record.zoneID = zoneID
        return record
    }
}

/// One entry of a records response: a record, or the error that took its place (inside a 200).
public enum RecordResult: Sendable, Hashable {
    case record(Record)
    case failure(RecordError)

    /// The record, if this entry is one.
    public var record: Record? {
        if case .record(let record) = self { return record }
        return nil
    }

    /// The error, if this entry is one.
    public var error: RecordError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension RecordResult: Codable {
    private enum ProbeKeys: String, CodingKey { case serverErrorCode }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKeys.self)
        if probe.contains(.serverErrorCode) {
            self = .failure(try RecordError(from: decoder))
        } else {
            self = .record(try Record(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .record(let record): try record.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }
}
