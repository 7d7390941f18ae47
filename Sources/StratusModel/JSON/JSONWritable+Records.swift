import Foundation

// The record types every records response and every stored row carries, written without
// `JSONEncoder`. Each mirrors its `Encodable` conformance member for member (synthesized ones:
// declaration order, `nil` skipped); `JSONWriterTests` checks them against `JSONEncoder`.

extension Record: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("recordName", recordName)
        // A tombstone's type only for a client that asks (CKWS's tombstones name only the record).
        if deleted != true || json.extensions.contains(.deletedRecordTypes) { json.member("recordType", recordType) }
        json.member("recordChangeTag", recordChangeTag)
        try json.member("fields", fields)
        try json.member("pluginFields", pluginFields)
        try json.member("created", created)
        try json.member("modified", modified)
        json.member("deleted", deleted)
        try json.member("parent", parent)
        try json.member("share", share)
        json.member("shortGUID", shortGUID)
        json.member("createShortGUID", createShortGUID)
        try json.member("zoneID", zoneID)
        try json.member("forRecord", forRecord)
        try json.member("publicPermission", encoding: publicPermission)
        try json.member("participants", encoding: participants)
        try json.member("owner", encoding: owner)
        try json.member("currentUserParticipant", encoding: currentUserParticipant)
        json.member("url", url)
        try json.member("clearedFields", encoding: clearedFields)
        json.member("clearsParent", clearsParent)
        json.endObject()
    }
}

extension RecordStamp: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("timestamp", timestamp)
        json.member("userRecordName", userRecordName)
        json.member("deviceID", deviceID)
        json.endObject()
    }
}

extension RecordPointer: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("recordName", recordName)
        json.member("recordChangeTag", recordChangeTag)
        try json.member("zoneID", zoneID)
        json.endObject()
    }
}

extension ZoneID: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("zoneName", zoneName)
        json.member("ownerRecordName", ownerRecordName)
        json.member("zoneType", zoneType)
        json.endObject()
    }
}

extension Field: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("type", type.rawValue)
        json.member("value")
        try value.write(to: &json)
        if let exactDates, json.extensions.contains(.exactDates) {
            json.member("exactDates")
            json.beginArray()
            for date in exactDates {
                json.member(nil)
                try json.double(date)
            }
            json.endArray()
        }
        json.endObject()
    }
}

extension FieldValue {
    /// The value as ``FieldValue/Encoding`` writes it (numbers as strings when the writer says so).
    func write(to json: inout JSONWriter) throws {
        switch self {
        case .string(let text): json.string(text)
        case .int64(let number), .timestamp(let number):
            if json.numbersAsStrings { json.string(String(number)) } else { json.integer(number) }
        case .double(let number):
            if json.numbersAsStrings { json.string(String(number)) } else { try json.double(number) }
        case .bytes(let data): json.string(data.base64EncodedString())
        case .location(let location): try location.write(to: &json)
        case .reference(let reference): try reference.write(to: &json)
        case .asset(let asset): try asset.write(to: &json)
        case .list(let items):
            json.beginArray()
            for item in items {
                json.member(nil)
                try item.write(to: &json)
            }
            json.endArray()
        }
    }
}

extension Reference: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("recordName", recordName)
        try json.member("zoneID", zoneID)
        json.member("action", action?.rawValue)
        json.endObject()
    }
}

extension Location: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        try json.member("latitude", latitude)
        try json.member("longitude", longitude)
        try json.member("horizontalAccuracy", horizontalAccuracy)
        try json.member("verticalAccuracy", verticalAccuracy)
        try json.member("altitude", altitude)
        try json.member("speed", speed)
        try json.member("course", course)
        json.member("timestamp", timestamp)
        json.endObject()
    }
}

extension AssetValue: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("fileChecksum", fileChecksum)
        json.member("size", size)
        json.member("referenceChecksum", referenceChecksum)
        json.member("wrappingKey", wrappingKey)
        json.member("receipt", receipt)
        json.member("downloadURL", downloadURL)
        json.endObject()
    }
}
