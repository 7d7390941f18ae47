import Foundation
import StratusModel

/// CKShare's participant rules, the same for every store: how a share save's participant specs
/// merge into the stored list, what opening or closing a share does, and the limits. Pure
/// functions over values; the stores read and write the rows.
package enum ShareRules {
    /// The participant list a share save asks for: given participants matched to existing ones
    /// (by id, account or email) and updated, new ones invited, missing ones removed. The owner
    /// always stays as they are. Linear in the participants: matches are found through indexes
    /// by id, account and email, never by searching the list.
    package static func merge(
        _ specs: [ParticipantSpec], into existing: [StoredParticipant], newID: @Sendable () -> String = BatchIDs.random.participantID
    ) -> [StoredParticipant] {
        var result = existing
        var participants = ParticipantIndex()
        for position in result.indices { participants.add(result[position], at: position) }
        var named = Set<String>()
        for spec in specs {
            guard let index = participants.first(matching: spec) else {
                guard spec.status != .removed else { continue }
                let invited = StoredParticipant(
                    id: newID(), userRecordName: spec.userRecordName, email: spec.email,
                    role: spec.role == .owner ? .user : spec.role, permission: spec.permission, status: .invited
                )
                participants.add(invited, at: result.count)
                result.append(invited)
                named.insert(invited.id)
                continue
            }
            named.insert(result[index].id)
            guard result[index].role != .owner else { continue }
            if spec.role != .owner { result[index].role = spec.role }
            result[index].permission = spec.permission
            if result[index].userRecordName == nil, let user = spec.userRecordName {
                result[index].userRecordName = user
                participants.add(result[index], at: index)
            }
            if spec.status == .removed {
                result[index].status = .removed
            } else if result[index].status == .removed {
                result[index].status = .invited
            }
        }
        for index in result.indices where !named.contains(result[index].id) && result[index].role != .owner {
            result[index].status = .removed
        }
        return result
    }

    /// Opening a private share to the public drops its pending invitations (accepted ones stay);
    /// closing a public share removes every participant but the owner (CKShare's rules).
    package static func applyPublicPermission(
        from old: SharePermission, to new: SharePermission, _ participants: [StoredParticipant]
    ) -> [StoredParticipant] {
        guard old != new else { return participants }
        return participants.map { participant in
            var participant = participant
            guard participant.role != .owner else { return participant }
            if old == .none, participant.status == .invited { participant.status = .removed }
            if new == .none { participant.status = .removed }
            return participant
        }
    }

    /// A public share takes no new invitations: its participant list changes only while it is
    /// private (private and public participants are not mixed).
    package static func checkNotMixed(_ participants: [StoredParticipant], before: [StoredParticipant], permission: SharePermission) -> WriteFailure? {
        guard permission != .none else { return nil }
        let wasActive = Set(before.filter { $0.status != .removed }.map(\.id))
        let invites = participants.contains { $0.status == .invited && $0.role != .publicUser && !wasActive.contains($0.id) }
        guard invites else { return nil }
        return .invalid("a public share (publicPermission \(permission.rawValue)) takes no invitations: private and public participants are not mixed")
    }

    package static func checkLimit(_ participants: [StoredParticipant], _ limit: Int) -> WriteFailure? {
        let count = participants.count { $0.status != .removed }
        guard count > limit else { return nil }
        return .invalid("a share may have at most \(limit) participants, this one would have \(count)")
    }

    /// A zone and its records take part in one share only (CloudKit's `alreadyShared`): a record
    /// roots at most one share, and a zone-wide share and record-hierarchy shares exclude each
    /// other. Checked when a share is created, against the zone as the batch has left it so far
    /// (a share created or deleted earlier in the batch counts; deleting a share makes the zone
    /// shareable again).
    ///
    /// - Parameters:
    ///   - name: the new share's record name.
    ///   - rootName: its root (`nil` for the zone-wide share).
    ///   - rootShare: the share the root already has, if any.
    ///   - other: a live share of the zone of the other kind, as the store found it (any
    ///     record-hierarchy share when the new one is zone-wide, else the zone-wide share).
    ///   - zone: the zone's name, for the reason.
    package static func checkOneShare(
        creating name: String, rootName: String?, rootShare: String?, other: (name: String, rootName: String?)?, zone: String
    ) -> WriteFailure? {
        if let rootName, let rootShare, rootShare != name {
            return .alreadyShared("record '\(rootName)' is already shared by '\(rootShare)': a record takes part in one share only")
        }
        guard let other else { return nil }
        if let rootName {
            return .alreadyShared(
                "zone '\(zone)' already takes part in the zone-wide share '\(other.name)': a zone and its records take part in one share only,"
                    + " so record '\(rootName)' cannot be shared on its own (delete the zone-wide share first)"
            )
        }
        let shared = other.rootName.map { " of record '\($0)'" } ?? ""
        return .alreadyShared(
            "zone '\(zone)' already holds the record share '\(other.name)'\(shared): a zone and its records take part in one share only,"
                + " so the zone cannot be shared as a whole (delete its record shares first)"
        )
    }

    /// What accepting a share does.
    package enum Acceptance {
        /// Nothing changes: the answer as it stands.
        case answer(AcceptOutcome)
        /// Save this participant list (the acceptor's entry accepted, or a public user added).
        case save([StoredParticipant])
    }

    /// Accepting `share` as `acceptor`: the owner and an accepted participant are answered at
    /// once; an invitation (by account, or by email not yet matched) is accepted; a public share
    /// takes a new public participant up to the limit; anyone else is not invited.
    package static func accept(_ share: StoredShare, by acceptor: Acceptor) -> Acceptance {
        let user = acceptor.userRecordName
        if share.owner == user { return .answer(.accepted(share)) }
        var participants = share.participants
        if let index = share.invitationIndex(user: user, email: acceptor.email) {
            switch participants[index].status {
            case .accepted: return .answer(.accepted(share))
            case .removed where share.publicPermission == .none: return .answer(.notInvited)
            default: break
            }
            participants[index].userRecordName = user
            participants[index].status = .accepted
        } else {
            guard share.publicPermission != .none else { return .answer(.notInvited) }
            participants.append(StoredParticipant(
                id: BatchIDs.random.participantID(), userRecordName: user, email: acceptor.email,
                role: .publicUser, permission: share.publicPermission, status: .accepted
            ))
            if checkLimit(participants, acceptor.participantLimit) != nil { return .answer(.tooManyParticipants) }
        }
        return .save(participants)
    }

    /// Accounts that had accepted before and no longer count as accepted.
    package static func lostAccess(before: [StoredParticipant], after: [StoredParticipant]) -> [String] {
        let stillAccepted = Set(after.filter { $0.status == .accepted }.compactMap(\.userRecordName))
        return before.filter { $0.status == .accepted && $0.role != .owner }
            .compactMap(\.userRecordName)
            .filter { !stillAccepted.contains($0) }
    }
}

/// Where each participant of a list is, by id, account and lower-cased email: the first
/// participant a spec names (in list order), found without searching the list.
package struct ParticipantIndex {
    package init() {}

    private var byID: [String: Int] = [:]
    private var byUser: [String: Int] = [:]
    private var byEmail: [String: Int] = [:]

    /// Records `participant` at `position`; an earlier position under the same key stays.
    package mutating func add(_ participant: StoredParticipant, at position: Int) {
        func keep(_ key: String?, in map: inout [String: Int]) {
            guard let key else { return }
            map[key] = min(map[key] ?? position, position)
        }
        keep(participant.id, in: &byID)
        keep(participant.userRecordName, in: &byUser)
        keep(participant.email?.lowercased(), in: &byEmail)
    }

    /// The first position whose participant has the spec's id, account or email.
    package func first(matching spec: ParticipantSpec) -> Int? {
        [spec.id.flatMap { byID[$0] }, spec.userRecordName.flatMap { byUser[$0] }, spec.email.flatMap { byEmail[$0.lowercased()] }]
            .compactMap { $0 }.min()
    }
}
