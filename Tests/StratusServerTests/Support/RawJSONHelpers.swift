import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// Raw JSON in and out, for probes of the wire: bodies a typed client would never
/// send, and answers read key by key.
extension TestServer {
    /// POSTs `json` text and returns the status and the answer as a dictionary.
    func json(
        _ operation: String, _ json: String, database: String = "private", as account: String? = "alice", headers: HTTPFields = [:]
    ) async throws -> (status: Int, body: [String: Any]) {
        let response = try await raw(operation, database: database, as: account, body: ByteBuffer(string: json), headers: headers)
        let body = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
        return (Int(response.status.code), body)
    }

    /// records/modify in `zone`; each item's error code (`nil` for a saved record).
    func itemCodes(
        _ operations: [[String: Any]], zone: String, atomic: Bool? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String?] {
        var body: [String: Any] = ["zoneID": ["zoneName": zone], "operations": operations]
        if let atomic { body["atomic"] = atomic }
        let answer = try await json("records/modify", object: body)
        #expect(answer.status == 200, "\(answer.body)", sourceLocation: sourceLocation)
        return items(answer.body).map { $0["serverErrorCode"] as? String }
    }

    /// POSTs a JSON object built from Swift values.
    func json(
        _ operation: String, object: [String: Any], database: String = "private", as account: String? = "alice", headers: HTTPFields = [:]
    ) async throws -> (status: Int, body: [String: Any]) {
        let data = try JSONSerialization.data(withJSONObject: object)
        return try await json(operation, String(decoding: data, as: UTF8.self), database: database, as: account, headers: headers)
    }
}

/// The per-item dictionaries of a records answer.
func items(_ body: [String: Any], _ key: String = "records") -> [[String: Any]] {
    body[key] as? [[String: Any]] ?? []
}

/// A record-creating operation as a JSON object.
func createOperation(_ name: String, type: String = "T", fields: [String: Any] = [:], parent: String? = nil) -> [String: Any] {
    var record: [String: Any] = ["recordName": name, "recordType": type, "fields": fields]
    if let parent { record["parent"] = ["recordName": parent] }
    return ["operationType": "create", "record": record]
}
