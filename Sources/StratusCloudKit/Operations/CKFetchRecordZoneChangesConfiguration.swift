import Foundation
import Synchronization

/// How ``CKFetchRecordZoneChangesOperation`` fetches one zone
/// (`CKFetchRecordZoneChangesOperation.ZoneConfiguration`; top-level, as its Objective-C name):
/// from which change token, how many changes a page, and which fields.
public final class CKFetchRecordZoneChangesConfiguration: NSObject, NSSecureCoding, NSCopying, Sendable {
    private let settings = Mutex(Settings())

    private struct Settings {
        var previousServerChangeToken: CKServerChangeToken?
        var resultsLimit = 0
        var desiredKeys: [CKRecord.FieldKey]?
    }

    /// The token of the zone's last fetch (`nil`: every record in the zone).
    public var previousServerChangeToken: CKServerChangeToken? {
        get { settings.withLock { $0.previousServerChangeToken } }
        set { settings.withLock { $0.previousServerChangeToken = newValue } }
    }

    /// How many changes a page holds at most (`0`: as many as the server gives).
    public var resultsLimit: Int {
        get { settings.withLock { $0.resultsLimit } }
        set { settings.withLock { $0.resultsLimit = newValue } }
    }

    /// The fields of changed records to fetch (`nil`: every field).
    public var desiredKeys: [CKRecord.FieldKey]? {
        get { settings.withLock { $0.desiredKeys } }
        set { settings.withLock { $0.desiredKeys = newValue } }
    }

    public override init() {
        super.init()
    }

    /// A configuration with these values (`resultsLimit` `nil`: as many as the server gives).
    public convenience init(
        previousServerChangeToken: CKServerChangeToken? = nil, resultsLimit: Int? = nil, desiredKeys: [CKRecord.FieldKey]? = nil
    ) {
        self.init()
        self.previousServerChangeToken = previousServerChangeToken
        self.resultsLimit = resultsLimit ?? 0
        self.desiredKeys = desiredKeys
    }

    /// The page size to ask the server for, `nil` for its own.
    var pageLimit: Int? { resultsLimit > 0 ? resultsLimit : nil }

    public func copy(with zone: NSZone? = nil) -> Any {
        CKFetchRecordZoneChangesConfiguration(
            previousServerChangeToken: previousServerChangeToken, resultsLimit: resultsLimit, desiredKeys: desiredKeys
        )
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        if let previousServerChangeToken { coder.encode(previousServerChangeToken, forKey: "previousServerChangeToken") }
        coder.encode(Int64(resultsLimit), forKey: "resultsLimit")
        if let desiredKeys, let data = try? JSONEncoder().encode(desiredKeys) { coder.encode(data as NSData, forKey: "desiredKeys") }
    }

    public init?(coder: NSCoder) {
        super.init()
        if coder.containsValue(forKey: "previousServerChangeToken") {
            previousServerChangeToken = coder.object(CKServerChangeToken.self, "previousServerChangeToken")
        }
        resultsLimit = Int(clamping: coder.decodeInt64(forKey: "resultsLimit"))
        if coder.containsValue(forKey: "desiredKeys"), let data = coder.data("desiredKeys") {
            desiredKeys = try? JSONDecoder().decode([CKRecord.FieldKey].self, from: data)
        }
    }
}
