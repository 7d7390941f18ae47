import Foundation
import Testing

@testable import StratusCloudKit

/// A participant's role and permission, changed by the app, mark it edited (so saving its share
/// sends the participants) and leave who it is as it was.
@Suite struct ParticipantStateTests {
    @Test func changingRoleAndPermissionMarksItEditedAndKeepsItsIdentity() {
        let identity = CKUserIdentity(userRecordID: nil, lookupInfo: CKUserIdentity.LookupInfo(emailAddress: "bob@example.com"), nameComponents: nil)
        let participant = CKShare.Participant(userIdentity: identity, role: .privateUser, permission: .readOnly, acceptanceStatus: .unknown, participantID: nil)
        let id = participant.participantID
        participant.permission = .readWrite
        participant.role = .administrator
        participant.isCurrentUser = true
        #expect(participant.participantID == id)
        #expect(participant.participantID.utf8.count == 36)
        #expect(participant.wire.participantId == id)
        #expect(participant.permission == .readWrite && participant.role == .administrator && participant.wasEdited)
    }
}
