import Foundation
import HTTPTypes
import HummingbirdTesting
import StratusModel
import Testing

/// Calls of the sharing walk-throughs: share records, resolve and accept, and the shared
/// database as a participant sees it.
extension TestServer {
    /// POSTs to `database` and decodes a 200 answer.
    package func call<Body: Encodable, Response: Decodable>(
        _ operation: String, _ request: Body, database: String, as account: String, expecting: Response.Type,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Response {
        let response = try await post(operation, request, database: database, as: account)
        #expect(response.status == .ok, "\(database)/\(operation): \(response.text)", sourceLocation: sourceLocation)
        return try response.decode(Response.self)
    }

    /// A zone of `owner`, as another account names it.
    package func zoneID(_ zone: String, of owner: String) -> ZoneID {
        ZoneID(zoneName: zone, ownerRecordName: userRecordName(owner))
    }

    package func email(_ account: String) -> String { credentials.account(account)?.email ?? "" }

    /// An invitation of `account` by email.
    package func invite(_ account: String, _ permission: SharePermission, role: ParticipantRole = .user) -> ShareParticipant {
        .invite(email: email(account), permission: permission, type: role)
    }

    /// The share record's creation: a record share for `root`, or the zone-wide share.
    package static func createShare(
        _ name: String, root: String?, participants: [ShareParticipant], publicPermission: SharePermission = .none
    ) -> RecordOperation {
        var share = Record(recordName: name, recordType: ShareNames.recordType, fields: ["cloudkit.title": .string("Trip")])
        share.forRecord = root.map { RecordPointer(recordName: $0) }
        share.participants = participants
        share.publicPermission = publicPermission
        return RecordOperation(.create, share)
    }

    /// An update of a share record to these participants (and public permission).
    package static func updateShare(_ share: Record, participants: [ShareParticipant]?, publicPermission: SharePermission? = nil) -> RecordOperation {
        var record = Record(recordName: share.recordName, recordType: ShareNames.recordType, recordChangeTag: share.recordChangeTag)
        record.participants = participants
        record.publicPermission = publicPermission
        return RecordOperation(.update, record)
    }

    package func shortGUIDs(_ guid: String) -> ShortGUIDsRequest {
        ShortGUIDsRequest(shortGUIDs: [ShortGUIDRequest(value: guid, shouldFetchRootRecord: true)])
    }

    package func resolve(_ guid: String, as account: String) async throws -> ShareMetadataResult {
        let response = try await call("records/resolve", shortGUIDs(guid), database: "public", as: account, expecting: ShareMetadataResponse.self)
        return try #require(response.results.first)
    }

    package func accept(_ guid: String, as account: String) async throws -> ShareMetadataResult {
        let response = try await call("records/accept", shortGUIDs(guid), database: "public", as: account, expecting: ShareMetadataResponse.self)
        return try #require(response.results.first)
    }

    package func sharedDatabaseChanges(as account: String, token: String? = nil) async throws -> DatabaseChangesResponse {
        try await call(
            "changes/database", DatabaseChangesRequest(syncToken: token), database: "shared", as: account,
            expecting: DatabaseChangesResponse.self
        )
    }

    package func sharedZoneChanges(_ zone: String, of owner: String, as account: String, token: String? = nil) async throws -> ZoneChangesResult {
        let request = ZoneChangesRequest(zones: [.init(zoneID: zoneID(zone, of: owner), syncToken: token)])
        let response = try await call("changes/zone", request, database: "shared", as: account, expecting: ZoneChangesResponse.self)
        return try #require(response.zones.first)
    }

    package func sharedLookup(_ names: [String], zone: String, of owner: String, as account: String) async throws -> [RecordResult] {
        let request = LookupRecordsRequest(records: names.map { .init(recordName: $0) }, zoneID: zoneID(zone, of: owner))
        return try await call("records/lookup", request, database: "shared", as: account, expecting: RecordsResponse.self).records
    }

    package func sharedModify(_ operations: [RecordOperation], zone: String, of owner: String, as account: String) async throws -> [RecordResult] {
        let request = ModifyRecordsRequest(operations: operations, zoneID: zoneID(zone, of: owner))
        return try await call("records/modify", request, database: "shared", as: account, expecting: RecordsResponse.self).records
    }

    /// Names of the live records in a page of zone changes, sorted.
    package static func liveNames(_ result: ZoneChangesResult) -> [String] {
        (result.value?.records ?? []).filter { $0.deleted != true }.compactMap(\.recordName).sorted()
    }
}

extension Record {
    /// This record as a child of `parent`.
    package func child(of parent: String) -> Record {
        var record = self
        record.parent = RecordPointer(recordName: parent)
        return record
    }
}

/// An empty JSON object, for bodies that carry nothing.
package struct EmptyBody: Codable {
    package init() {}
}
