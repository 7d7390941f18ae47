/// Where each participant of a list is, by id, account and lower-cased email: the first
/// participant a spec names (in list order), found without searching the list.
struct ParticipantIndex {
    private var byID: [String: Int] = [:]
    private var byUser: [String: Int] = [:]
    private var byEmail: [String: Int] = [:]

    /// Records `participant` at `position`; an earlier position under the same key stays.
    mutating func add(_ participant: StoredParticipant, at position: Int) {
        func keep(_ key: String?, in map: inout [String: Int]) {
            guard let key else { return }
            map[key] = min(map[key] ?? position, position)
        }
        keep(participant.id, in: &byID)
        keep(participant.userRecordName, in: &byUser)
        keep(participant.email?.lowercased(), in: &byEmail)
    }

    /// The first position whose participant has the spec's id, account or email.
    func first(matching spec: ParticipantSpec) -> Int? {
        [spec.id.flatMap { byID[$0] }, spec.userRecordName.flatMap { byUser[$0] }, spec.email.flatMap { byEmail[$0.lowercased()] }]
            .compactMap { $0 }.min()
    }
}
