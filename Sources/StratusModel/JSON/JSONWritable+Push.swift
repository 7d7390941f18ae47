// Notifications, written without `JSONEncoder`: one is stored and one answered per change a
// subscriber is told of. Mirrors the synthesized `Encodable` (`JSONWriterTests` checks it).

extension PushNotification: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("notificationID", notificationID)
        json.member("notificationType", notificationType.rawValue)
        json.member("subscriptionID", subscriptionID)
        json.member("subscriptionOwnerUserRecordName", subscriptionOwnerUserRecordName)
        json.member("containerIdentifier", containerIdentifier)
        json.member("environment", environment?.rawValue)
        json.member("databaseScope", databaseScope.rawValue)
        try json.member("zoneID", zoneID)
        json.member("isPruned", isPruned)
        json.member("recordName", recordName)
        json.member("queryNotificationReason", queryNotificationReason?.rawValue)
        try json.member("recordFields", recordFields)
        try json.member("notificationInfo", encoding: notificationInfo)
        json.member("timestamp", timestamp)
        json.endObject()
    }
}
