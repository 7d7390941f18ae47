import CloudKit
import Foundation
import Testing

/// `CKShare.Participant.ID` names a participant: the `participantID` an app keys its own
/// per-participant data by, kept when the participant is archived.
@Suite struct ShareParticipantIDTests {
    @Test func aParticipantsIDIsACKSharePartipantIDAndSurvivesArchiving() throws {
        let share = CKShare(rootRecord: CKRecord(recordType: "Trip"))
        let owner: CKShare.Participant = share.owner
        let id: CKShare.Participant.ID = owner.participantID
        #expect(!id.isEmpty)

        var colours: [CKShare.Participant.ID: String] = [:]
        colours[id] = "teal"

        let data = try NSKeyedArchiver.archivedData(withRootObject: owner, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKShare.Participant.self, from: data))
        #expect(back.participantID == id)
        #expect(colours[back.participantID] == "teal")
    }
}
