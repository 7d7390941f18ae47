import Foundation
import StratusModel

/// The parts of an APNs payload CloudKit's notifications read: `aps` and `ck` with its source
/// (`met` database, `fet` zone, `qry` query). A notification of a Stratus webcourier feed (the
/// JSON of one entry of `notifications`) is read as the payload Apple's courier would carry for
/// it, every record field kept.
struct NotificationPayload {
    let aps: [String: Any]
    let ck: [String: Any]
    let source: [String: Any]
    let kind: CKNotification.NotificationType

    init?(_ dictionary: [AnyHashable: Any]) {
        let apns = dictionary["ck"] == nil ? Self.apnsDictionary(ofFeedEntry: dictionary) ?? dictionary : dictionary
        guard let ck = apns["ck"] as? [String: Any] else { return nil }
        self.ck = ck
        aps = apns["aps"] as? [String: Any] ?? [:]
        if let source = ck["qry"] as? [String: Any] {
            (self.source, kind) = (source, .query)
        } else if let source = ck["fet"] as? [String: Any] {
            (self.source, kind) = (source, .recordZone)
        } else if let source = ck["met"] as? [String: Any] {
            (self.source, kind) = (source, .database)
        } else {
            return nil
        }
    }

    /// The alert dictionary (a bare string is its body).
    var alert: [String: Any] {
        if let text = aps["alert"] as? String { return ["body": text] }
        return aps["alert"] as? [String: Any] ?? [:]
    }

    /// `dbs`: 1 public, 2 private, 3 shared.
    var databaseScope: CKDatabase.Scope {
        source["dbs"].flatMap(Self.number).flatMap { CKDatabase.Scope(rawValue: $0.intValue) } ?? .private
    }

    /// The zone named by `zid` and `zoid`, as the framework names zones in each database: the
    /// caller's own (private, public) with ``CKCurrentUserDefaultName``, a shared one with its owner.
    var zoneID: CKRecordZone.ID? {
        guard let name = source["zid"] as? String else { return nil }
        guard databaseScope == .shared, let owner = source["zoid"] as? String else { return CKRecordZone.ID(zoneName: name) }
        return CKRecordZone.ID(zoneName: name, ownerName: owner)
    }

    /// `ckuserid`: the subscription's owner.
    var subscriptionOwner: CKRecord.ID? {
        (ck["ckuserid"] as? String).map { CKRecord.ID(recordName: $0) }
    }

    /// `af`, the record's values of the subscription's desired keys, as a record holds them:
    /// `String`, `NSNumber`, `Date`, `CLLocation`, `CKRecord.Reference` (references without a
    /// zone are in `zoneID`); `nil` when the payload carries none.
    func recordFields(in zoneID: CKRecordZone.ID) -> [String: Any]? {
        guard let raw = source["af"] as? [String: Any] else { return nil }
        var fields: [String: Any] = [:]
        for (key, value) in raw {
            if let typed = Self.recordValue(value, zoneID: zoneID) { fields[key] = typed }
        }
        return fields
    }

    /// One `af` value: a string or number as it is, a typed field (`{"type", "value"}`) as the
    /// value it holds.
    static func recordValue(_ raw: Any, zoneID: CKRecordZone.ID) -> Any? {
        if let text = raw as? String { return text }
        if let object = raw as? [String: Any] {
            guard JSONSerialization.isValidJSONObject(object), let data = try? JSONSerialization.data(withJSONObject: object),
                let field = try? JSONDecoder().decode(Field.self, from: data)
            else { return nil }
            return RecordValues.value(of: field, in: zoneID)
        }
        switch raw {
        case let number as NSNumber: return number
        case let number as Int: return NSNumber(value: number)
        case let number as Int64: return NSNumber(value: number)
        case let number as Double: return NSNumber(value: number)
        case let flag as Bool: return NSNumber(value: flag)
        default: return nil
        }
    }

    func flag(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return flag }
        return value.flatMap(Self.number)?.boolValue ?? false
    }

    /// A number however the dictionary holds it (JSON gives `NSNumber`, Swift literals `Int`).
    static func number(_ value: Any) -> NSNumber? {
        switch value {
        case let number as NSNumber: number
        case let number as Int: NSNumber(value: number)
        case let flag as Bool: NSNumber(value: flag)
        case let text as String: Int(text).map { NSNumber(value: $0) }
        default: nil
        }
    }

    /// The APNs form of a webcourier feed entry (`notificationType`, `containerIdentifier`, …);
    /// `nil` when the dictionary is not one.
    static func apnsDictionary(ofFeedEntry entry: [AnyHashable: Any]) -> [AnyHashable: Any]? {
        guard entry["notificationType"] != nil, entry["containerIdentifier"] != nil else { return nil }
        var object: [String: Any] = [:]
        for (key, value) in entry {
            if let key = key as? String { object[key] = value }
        }
        guard JSONSerialization.isValidJSONObject(object), let data = try? JSONSerialization.data(withJSONObject: object),
            let notification = try? JSONDecoder().decode(PushNotification.self, from: data)
        else { return nil }
        return apnsDictionary(of: notification)
    }

    /// The payload Apple's courier would carry for a feed's notification, with no size limit.
    static func apnsDictionary(of notification: PushNotification) -> [AnyHashable: Any]? {
        guard let data = try? JSONEncoder().encode(ApplePushPayload(notification, byteLimit: nil)) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [AnyHashable: Any]
    }
}
