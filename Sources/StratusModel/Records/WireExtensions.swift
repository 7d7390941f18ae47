import Foundation

/// What a client asks the server for beyond CloudKit Web Services' own JSON, where Apple's
/// native framework knows more than CKWS carries: sent as the request header
/// `X-Stratus-Extensions` (names separated by commas). A client that sends none — every CKWS
/// client — gets Apple's keys, and besides them only the two that say why a zone went (below),
/// under names no Apple client reads.
///
/// - `exactDates`: a TIMESTAMP field keeps each date's exact value beside CKWS's whole
///   milliseconds, as `exactDates` (seconds since 2001-01-01, `Date`'s own value) — a `Date` saved
///   through StratusCloudKit reads back `==`. The server stores what a client sends; it answers it
///   only to a client that asks.
/// - `deletedRecordTypes`: a deleted record in a change feed names its `recordType`, as the
///   native framework's deletions do (CKWS tombstones name only the record).
/// - `frameworkBatches`: a records/modify may carry as many operations as Apple's framework
///   takes in one modify (``ServiceLimits/frameworkOperationsPerModify``, 400), so an atomic
///   batch of that size commits whole; CKWS's own limit (200) holds for every other client.
/// - `zoneShares`: a zone dictionary of zones/list and zones/lookup names the zone's zone-wide
///   share (`share`: `{ recordName: "cloudkit.zoneshare", zoneID }`), as the native framework's
///   `CKRecordZone.share` does (CKWS's zone dictionary carries no share).
/// - `nativeErrorCodes`: an error body, and a per-record and per-zone error, names the native
///   `CKError.Code` number where CKWS's `serverErrorCode` alone is ambiguous, as
///   `nativeErrorCode` (5: bad container, 21: change token expired, 27: limit exceeded, 28: the
///   user deleted the zone, 30: already shared). Never under `ckErrorCode`: CloudKit JS copies
///   that key into its own `CKError.ckErrorCode`, which apps compare with string constants.
/// - `serverRecords`: a `CONFLICT` or `EXISTS` per-record error carries the server's current
///   record as `serverRecord` (the native `CKError.serverRecord`), so a client merges without
///   another round trip.
/// - `clientChangeTokens`: a zone's page of changes/zone carries `clientChangeToken`, the token
///   the caller's device last sent with a records/modify that changed the zone (the native
///   `clientChangeTokenData`), so an app tells whether its last modify reached the server.
///
/// Why a zone went is no extension: `deletionReason` on a deleted zone of `changes/database` and
/// `userDidResetEncryptedData: true` on a `ZONE_NOT_FOUND` tell any client that tests an account
/// event (purge, encrypted-data reset) what happened, under names no Apple client reads.
public struct WireExtensions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let exactDates = WireExtensions(rawValue: 1 << 0)
    public static let deletedRecordTypes = WireExtensions(rawValue: 1 << 1)
    public static let frameworkBatches = WireExtensions(rawValue: 1 << 2)
    public static let zoneShares = WireExtensions(rawValue: 1 << 3)
    public static let nativeErrorCodes = WireExtensions(rawValue: 1 << 4)
    public static let serverRecords = WireExtensions(rawValue: 1 << 5)
    public static let clientChangeTokens = WireExtensions(rawValue: 1 << 6)
    public static let all: WireExtensions = [
        .exactDates, .deletedRecordTypes, .frameworkBatches, .zoneShares, .nativeErrorCodes, .serverRecords, .clientChangeTokens,
    ]

    /// The request header that names them.
    public static let headerName = "X-Stratus-Extensions"

    /// The extensions a header value names (unknown names are ignored, so a newer client's
    /// header still works).
    public init(header: String?) {
        self = []
        for name in header?.split(separator: ",") ?? [] {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            if let named = Self.named.first(where: { $0.name == trimmed }) { insert(named.extensions) }
        }
    }

    /// The header value that names these extensions.
    public var headerValue: String {
        Self.named.filter { contains($0.extensions) }.map(\.name).joined(separator: ",")
    }

    /// Each extension's name in the header, in the order a header names them.
    private static let named: [(name: String, extensions: WireExtensions)] = [
        ("exactDates", .exactDates), ("deletedRecordTypes", .deletedRecordTypes), ("frameworkBatches", .frameworkBatches),
        ("zoneShares", .zoneShares), ("nativeErrorCodes", .nativeErrorCodes), ("serverRecords", .serverRecords),
        ("clientChangeTokens", .clientChangeTokens),
    ]
}

extension CodingUserInfoKey {
    /// The ``WireExtensions`` an encoder writes (none unless set): `JSONEncoder` writes a
    /// field's `exactDates` only when this holds `.exactDates`.
    public static let wireExtensions = CodingUserInfoKey(rawValue: "stratus.wireExtensions")!
}

extension Encoder {
    /// The ``WireExtensions`` this encoder writes (none unless its `userInfo` names them).
    public var wireExtensions: WireExtensions {
        userInfo[.wireExtensions] as? WireExtensions ?? []
    }
}
