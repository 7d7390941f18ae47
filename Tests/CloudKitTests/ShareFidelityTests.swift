import CloudKit
import Testing

/// Shares as Apple's framework keeps them: saved as `.ifServerRecordUnchanged` whatever the
/// operation's policy, archived with who takes part, participants only for people with an
/// account, accepted in a batch answered by metadata.
@Suite struct ShareFidelityTests {
    @Test func aShareSavesUnderAnyPolicyAndArchivesItsParticipants() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let zoneID = CKRecordZone.ID(zoneName: "Album")
            _ = try await alice.privateCloudDatabase.save(CKRecordZone(zoneID: zoneID))
            let root = CKRecord(recordType: "Album", recordID: CKRecord.ID(recordName: "summer", zoneID: zoneID))
            let share = CKShare(rootRecord: root)
            share[CKShare.SystemFieldKey.title] = "Summer"

            let byEmail = try await alice.shareParticipants(forEmailAddresses: ["bob@example.com", "nobody@example.com"])
            let participant = try #require(try byEmail["bob@example.com"]?.get())
            #expect((byEmail["nobody@example.com"].map { result -> CKError.Code? in result.failureCode } ?? nil) == .unknownItem)
            participant.permission = .readWrite
            share.addParticipant(participant)
            let (saves, _) = try await alice.privateCloudDatabase.modifyRecords(saving: [root, share], deleting: [], savePolicy: .changedKeys)
            let saved = try #require(try saves[share.recordID]?.get() as? CKShare)
            #expect(try saves[root.recordID]?.get() != nil)

            let metadata = try await bob.shareMetadata(for: try #require(saved.url))
            let accepted = try await bob.accept([metadata])
            #expect(try accepted[metadata]?.get().recordID == metadata.share.recordID)

            let bobsCopy = try #require(try await bob.sharedCloudDatabase.record(for: metadata.share.recordID) as? CKShare)
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            bobsCopy.encodeSystemFields(with: archiver)
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            unarchiver.requiresSecureCoding = true
            let restored = try #require(CKShare(coder: unarchiver))
            #expect(restored.participants.count == 2)
            #expect(restored.owner.userIdentity.userRecordID == bobsCopy.owner.userIdentity.userRecordID)
            #expect(restored.currentUserParticipant?.permission == .readWrite)
            #expect(restored.currentUserParticipant?.acceptanceStatus == .accepted)
            #expect(restored.url == saved.url && restored.recordChangeTag == bobsCopy.recordChangeTag)

            // Metadata archive and restore, and still accepts (a second accept changes nothing).
            let metadataData = try NSKeyedArchiver.archivedData(withRootObject: metadata, requiringSecureCoding: true)
            let restoredMetadata = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKShare.Metadata.self, from: metadataData))
            #expect(restoredMetadata.share.recordID == metadata.share.recordID && restoredMetadata.containerIdentifier == metadata.containerIdentifier)
            _ = try await bob.accept(restoredMetadata)
        }
    }
}
