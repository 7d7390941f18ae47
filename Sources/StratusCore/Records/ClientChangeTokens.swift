import StratusModel
import StratusStore

/// What Core keeps of `CKModifyRecordsOperation.clientChangeTokenData`: the token a records/modify
/// names (``StratusModel/ModifyRecordsRequest/clientChangeToken``, refused whole when too long) is
/// kept for the zone when the zone took the modify, for the caller's device, and answered with the
/// zone's changes to a client that asks. It is written just after the zone's commit: a server that
/// stops in between answers the older token, so the app sends its changes again — an edit is never
/// taken as arrived when it did not.
enum ClientChangeTokens {
    /// Whether a modify's token is kept: the zone took at least one of its changes (a delete of a
    /// record already gone included: the server saw it), in a zone with a change feed to answer
    /// it — not the default zone, not the public database.
    static func keeps(_ result: ZoneBatchResult, scope: DatabaseScope, isDefaultZone: Bool) -> Bool {
        guard !isDefaultZone, scope != .public else { return false }
        return result.outcomes.contains { outcome in
            if case .failed = outcome { false } else { true }
        }
    }

    /// Whose token it is: a user's, on the device they named (`X-Stratus-Device-ID`; a client
    /// naming none is one device of its user).
    static func client(user: String, device: String?) -> String {
        "\(user)\u{1F}\(device ?? "")"
    }
}
