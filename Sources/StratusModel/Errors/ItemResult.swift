/// One entry of a batch response: the item, or the error dictionary CloudKit puts in its place
/// inside a 200. On the wire an entry is an error exactly when it has a `serverErrorCode`.
public enum ItemResult<Success: Codable & Sendable & Hashable, Failure: Codable & Sendable & Hashable & Error>:
    Sendable, Hashable, Codable
{
    case success(Success)
    case failure(Failure)

    /// The item, if this entry is one.
    public var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, if this entry is one.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    private enum ProbeKeys: String, CodingKey { case serverErrorCode }

    public init(from decoder: any Decoder) throws {
        if try decoder.container(keyedBy: ProbeKeys.self).contains(.serverErrorCode) {
            self = .failure(try Failure(from: decoder))
        } else {
            self = .success(try Success(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .success(let value): try value.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }
}

/// An entry of a records response: a record or a record error.
public typealias RecordResult = ItemResult<Record, RecordError>
/// An entry of a zones response: a zone or a zone error.
public typealias ZoneResult = ItemResult<Zone, ZoneError>
/// An entry of a changes/zone response: a page of changes or the zone's error.
public typealias ZoneChangesResult = ItemResult<ZoneChangesPage, ZoneError>

extension ItemResult where Success == Record {
    /// The record, if this entry is one.
    public var record: Record? { value }
}
