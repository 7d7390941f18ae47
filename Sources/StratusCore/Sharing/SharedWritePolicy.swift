import Foundation
import StratusModel
import StratusStore

/// What a participant may write through their shared database, checked before the batch:
///
/// - READ_WRITE participants (or anyone, on a public READ_WRITE share) create records under a
///   shared parent, and update and delete shared records; READ_ONLY participants nothing.
/// - A new record must join a shared hierarchy through `parent` (a zone-wide share needs none).
/// - Only the owner deletes a hierarchy's root record.
/// - Only the owner and administrators change a share record.
///
/// Every denial is an `ACCESS_DENIED` item (CKError.permissionFailure) and changes nothing.
struct SharedWritePolicy {
    let view: SharedZoneView
    /// Records of the zone the request names that exist outside the participant's view.
    let hidden: Set<String>

    func check(_ plans: [OperationPlanner.Plan], names: [String]) -> [OperationPlanner.Plan] {
        var joined = Set<String>()
        return zip(plans, names).map { plan, name in
            guard case .write(let write, _) = plan else { return plan }
            guard let reason = denial(of: write, joined: &joined) else { return plan }
            return .failure(RecordError(recordName: name, serverErrorCode: .accessDenied, reason: reason, uuid: ErrorUUID.make()))
        }
    }

    private func denial(of write: RecordWrite, joined: inout Set<String>) -> String? {
        let name = write.name
        // Leaving a share the caller takes part in is always theirs to do.
        if write.action == .leave { return nil }
        if write.share != nil {
            guard write.action != .create, let grant = view.grant(ofShare: name), grant.participant.role.managesParticipants else {
                return "only the share's owner and its administrators may change the share"
            }
            return nil
        }
        if hidden.contains(name) { return "record '\(name)' is not shared with you" }
        let grants = view.grants(covering: name)
        if write.action == .delete {
            guard !grants.isEmpty else { return "record '\(name)' is not shared with you" }
            guard grants.contains(where: \.mayWrite) else { return readOnly }
            if view.isRoot(name) { return "only the owner may delete the root record of a share" }
            return nil
        }
        if !grants.isEmpty {
            guard grants.contains(where: \.mayWrite) else { return readOnly }
            if let parent = write.parentName, !mayWrite(under: parent, joined: joined) {
                return "parent '\(parent)' is not in a hierarchy you may write to"
            }
            return nil
        }
        guard let parent = write.parentName else {
            return "a record saved in the shared database must have a parent in a hierarchy shared with you"
        }
        guard mayWrite(under: parent, joined: joined) else {
            return "parent '\(parent)' is not in a hierarchy you may write to"
        }
        joined.insert(name)
        return nil
    }

    private var readOnly: String { "you have read-only access to this share" }

    private func mayWrite(under parent: String, joined: Set<String>) -> Bool {
        joined.contains(parent) || view.grants(covering: parent).contains(where: \.mayWrite)
    }
}
