import CloudKit
import Foundation
import Testing

/// `clientChangeTokenData`: the token an app sets on a `CKModifyRecordsOperation` comes back when
/// it fetches the changes of the zones that operation changed — in `recordZoneFetchResultBlock`
/// and `recordZoneChangeTokensUpdatedBlock` — so it can tell its last modify reached the server.
@Suite struct ClientChangeTokenTests {
    @Test func theTokenOfTheLastModifyComesBackWithTheZonesChanges() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let journal = CKRecordZone.ID(zoneName: "Journal")
            let untouched = CKRecordZone.ID(zoneName: "Untouched")
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: journal), CKRecordZone(zoneID: untouched)], deleting: [])

            let first = Data("edit-1".utf8)
            try await modify(db, saving: "e1", in: journal, clientChangeTokenData: first)
            // The app's next CKContainer object for the same account sees it too.
            let again = try server.container("alice").privateCloudDatabase
            #expect(try await clientTokens(in: [journal, untouched], of: again) == [journal: first])

            let second = Data("edit-2".utf8)
            try await modify(db, saving: "e2", in: journal, clientChangeTokenData: second)
            #expect(try await clientTokens(in: [journal], of: db) == [journal: second])
        }
    }

    /// The server keeps the token (Apple: "the server remembers the last client token it saw for
    /// each zone"), for the device that sent it: it comes back after the server restarts and the
    /// app relaunches, and never to another device of the account.
    @Test func theTokenOutlivesARestartAndStaysWithItsDevice() async throws {
        try await DevServer.with { server in
            let journal = CKRecordZone.ID(zoneName: "Journal")
            let phone = try container(of: server, "alice", device: "phone").privateCloudDatabase
            _ = try await phone.save(CKRecordZone(zoneID: journal))
            let token = Data("phone-edit".utf8)
            try await modify(phone, saving: "e1", in: journal, clientChangeTokenData: token)

            try await server.restart()
            let relaunched = try container(of: server, "alice", device: "phone").privateCloudDatabase
            #expect(try await clientTokens(in: [journal], of: relaunched) == [journal: token])
            let laptop = try container(of: server, "alice", device: "laptop").privateCloudDatabase
            #expect(try await clientTokens(in: [journal], of: laptop).isEmpty)
        }
    }

    @Test func aZoneWithMoreChangesHandsTheTokenBackWithEachPage() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let journal = CKRecordZone.ID(zoneName: "Journal")
            _ = try await db.save(CKRecordZone(zoneID: journal))
            let token = Data("batch".utf8)
            try await modify(db, saving: "a", "b", "c", in: journal, clientChangeTokenData: token)

            let onePerPage = CKFetchRecordZoneChangesOperation.ZoneConfiguration(previousServerChangeToken: nil, resultsLimit: 1)
            let fetch = CKFetchRecordZoneChangesOperation(recordZoneIDs: [journal], configurationsByRecordZoneID: [journal: onePerPage])
            let updated = Locked<[Data?]>([])
            let final = Locked<Data?>(nil)
            fetch.recordZoneChangeTokensUpdatedBlock = { _, _, data in updated.update { $0.append(data) } }
            fetch.recordZoneFetchResultBlock = { _, result in
                if case .success(let zone) = result { final.update { $0 = zone.clientChangeTokenData } }
            }
            try await run(fetch, in: db)
            #expect(!updated.value.isEmpty, "three changes a page at a time: tokens along the way")
            #expect(updated.value.allSatisfy { $0 == token })
            #expect(final.value == token)
        }
    }
}

/// A container as `account` on the device named `device` (`X-Stratus-Device-ID`).
private func container(of server: DevServer, _ account: String, device: String) throws -> CKContainer {
    var connection = try StratusConnection(devCredentials: server.credentials, account: account)
    connection.deviceID = device
    return CKContainer(identifier: server.containerIdentifier, connection: connection)
}

/// Saves records named `names` in `zoneID` with a `CKModifyRecordsOperation` carrying `clientChangeTokenData`.
private func modify(_ db: CKDatabase, saving names: String..., in zoneID: CKRecordZone.ID, clientChangeTokenData: Data) async throws {
    let records = names.map { CKRecord(recordType: "Entry", recordID: CKRecord.ID(recordName: $0, zoneID: zoneID)) }
    let operation = CKModifyRecordsOperation(recordsToSave: records, recordIDsToDelete: nil)
    operation.clientChangeTokenData = clientChangeTokenData
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
        operation.modifyRecordsResultBlock = { result in done.resume(with: result) }
        db.add(operation)
    }
}

/// The `clientChangeTokenData` each zone's fetch result hands back (zones without one left out).
private func clientTokens(in zoneIDs: [CKRecordZone.ID], of db: CKDatabase) async throws -> [CKRecordZone.ID: Data] {
    let fetch = CKFetchRecordZoneChangesOperation(recordZoneIDs: zoneIDs, configurationsByRecordZoneID: nil)
    let tokens = Locked<[CKRecordZone.ID: Data]>([:])
    fetch.recordZoneFetchResultBlock = { zoneID, result in
        if case .success(let zone) = result, let data = zone.clientChangeTokenData { tokens.update { $0[zoneID] = data } }
    }
    try await run(fetch, in: db)
    return tokens.value
}

/// Runs a zone changes fetch to its result.
private func run(_ fetch: CKFetchRecordZoneChangesOperation, in db: CKDatabase) async throws {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
        fetch.fetchRecordZoneChangesResultBlock = { result in done.resume(with: result) }
        db.add(fetch)
    }
}
