// The responses that carry records (modify, lookup, query, change feeds), written without
// `JSONEncoder`; each mirrors its `Encodable` conformance (`JSONWriterTests` checks them).

extension ItemResult: JSONWritable where Success: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        switch self {
        case .success(let value): try value.write(to: &json)
        case .failure(let error): try json.encodable(error)
        }
    }
}

extension RecordsResponse: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        try json.member("records", records)
        json.endObject()
    }
}

extension QueryRecordsResponse: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        try json.member("records", records)
        json.member("continuationMarker", continuationMarker)
        json.endObject()
    }
}

extension ZoneChangesResponse: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        try json.member("zones", zones)
        json.endObject()
    }
}

extension ZoneChangesPage: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        try json.member("zoneID", zoneID)
        try json.member("records", records)
        json.member("syncToken", syncToken)
        json.member("moreComing", moreComing)
        json.member("clientChangeToken", clientChangeToken)
        json.endObject()
    }
}

extension RecordChangesResponse: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        try json.member("records", records)
        json.member("syncToken", syncToken)
        json.member("moreComing", moreComing)
        json.member("reverse", reverse)
        json.endObject()
    }
}
