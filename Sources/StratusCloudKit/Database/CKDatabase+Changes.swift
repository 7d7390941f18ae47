import Foundation
import StratusModel

extension CKDatabase {
    /// What `databaseChanges(since:)` answers: zones changed and deleted since the token, the
    /// token to send next, and whether more changes wait.
    public struct DatabaseChange: Sendable {
        public struct Modification: Sendable {
            public let zoneID: CKRecordZone.ID

            /// Package access: a test's scripted database answers pages of its own.
            package init(zoneID: CKRecordZone.ID) {
                self.zoneID = zoneID
            }
        }

        public struct Deletion: Sendable {
            public let zoneID: CKRecordZone.ID
            public let reason: Reason

            package init(zoneID: CKRecordZone.ID, reason: Reason) {
                self.zoneID = zoneID
                self.reason = reason
            }

            /// Whether the user deleted the zone when managing their iCloud storage (``reason``
            /// `.purged`), as Apple's iOS 15 SDK reported it.
            @available(*, deprecated, message: "Use reason")
            public var purged: Bool { reason == .purged }

            /// Why a zone went.
            public enum Reason: Sendable, Hashable {
                case deleted, purged, encryptedDataReset
            }
        }
    }

    /// Zones changed and deleted since `changeToken` (all zones for `nil`).
    public func databaseChanges(
        since changeToken: CKServerChangeToken?, resultsLimit: Int? = nil
    ) async throws -> (modifications: [DatabaseChange.Modification], deletions: [DatabaseChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool) {
        let response = try await post(
            "changes/database", DatabaseChangesRequest(syncToken: changeToken?.value, resultsLimit: resultsLimit), as: DatabaseChangesResponse.self
        )
        var modifications: [DatabaseChange.Modification] = []
        var deletions: [DatabaseChange.Deletion] = []
        for zone in response.zones {
            let id = zoneID(zone.zoneID)
            if zone.deleted == true {
                let reason: DatabaseChange.Deletion.Reason =
                    switch zone.deletionReason {
                    case .purged?: .purged
                    case .encryptedDataReset?: .encryptedDataReset
                    default: .deleted
                    }
                deletions.append(DatabaseChange.Deletion(zoneID: id, reason: reason))
            } else {
                modifications.append(DatabaseChange.Modification(zoneID: id))
            }
        }
        return (modifications, deletions, CKServerChangeToken(response.syncToken), response.moreComing)
    }

    /// What `recordZoneChanges(inZoneWith:since:)` answers for one zone.
    public struct RecordZoneChange: Sendable {
        public struct Modification: Sendable {
            public let record: CKRecord

            /// Package access: a test's scripted database answers pages of its own.
            package init(record: CKRecord) {
                self.record = record
            }
        }

        public struct Deletion: Sendable {
            public let recordID: CKRecord.ID
            public let recordType: CKRecord.RecordType

            package init(recordID: CKRecord.ID, recordType: CKRecord.RecordType) {
                self.recordID = recordID
                self.recordType = recordType
            }
        }
    }

    /// Records changed and deleted in a zone since `changeToken` (everything for `nil`).
    public func recordZoneChanges(
        inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int? = nil
    ) async throws -> (
        modificationResultsByID: [CKRecord.ID: Result<RecordZoneChange.Modification, any Error>],
        deletions: [RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool
    ) {
        let page = try await zoneChangesPage(
            inZoneWith: zoneID, since: changeToken, desiredKeys: desiredKeys, resultsLimit: resultsLimit, clientChangeToken: false
        )
        return (page.modificationResultsByID, page.deletions, page.changeToken, page.moreComing)
    }

    /// ``recordZoneChanges(inZoneWith:since:desiredKeys:resultsLimit:)``, and with
    /// `clientChangeToken` the client change token this device last sent with a modify the zone
    /// took, as the server keeps it (``CKModifyRecordsOperation/clientChangeTokenData``; `nil`
    /// when it holds none or is not asked).
    func zoneChangesPage(
        inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?, desiredKeys: [CKRecord.FieldKey]?, resultsLimit: Int?,
        clientChangeToken: Bool
    ) async throws -> (
        modificationResultsByID: [CKRecord.ID: Result<RecordZoneChange.Modification, any Error>],
        deletions: [RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool, clientChangeTokenData: Data?
    ) {
        var options = ZoneChangesRequest.ZoneOptions(zoneID: zoneID.wire, syncToken: changeToken?.value, resultsLimit: resultsLimit)
        options.desiredKeys = desiredKeys
        let response = try await post(
            "changes/zone", ZoneChangesRequest(zones: [options]), as: ZoneChangesResponse.self, asking: clientChangeToken ? .clientChangeTokens : []
        )
        let page: ZoneChangesPage
        switch response.zones.first {
        case .success(let found)?: page = found
        case .failure(let error)?: throw CKError(error)
        case nil: throw CKError(.serverRejectedRequest, "changes/zone answered no zone")
        }
        var modifications: [CKRecord.ID: Result<RecordZoneChange.Modification, any Error>] = [:]
        var deletions: [RecordZoneChange.Deletion] = []
        for wire in page.records {
            let id = CKRecord.ID(recordName: wire.recordName ?? "", zoneID: zoneID)
            if wire.deleted == true {
                deletions.append(RecordZoneChange.Deletion(recordID: id, recordType: wire.recordType ?? ""))
            } else {
                do {
                    modifications[id] = .success(RecordZoneChange.Modification(record: try await received(wire, in: zoneID)))
                } catch {
                    modifications[id] = .failure(error)
                }
            }
        }
        return (modifications, deletions, CKServerChangeToken(page.syncToken), page.moreComing, page.clientChangeToken.flatMap { Data(base64Encoded: $0) })
    }
}
