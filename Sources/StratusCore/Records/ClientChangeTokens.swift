/// What Core keeps of `CKModifyRecordsOperation.clientChangeTokenData`: the token a records/modify
/// names (``StratusModel/ModifyRecordsRequest/clientChangeToken``, refused whole when too long) is
/// kept for the zone when the modify changed it, for the caller's device, and answered with the
/// zone's changes to a client that asks. It is written after the zone's commit: a server that stops in between answers the
/// older token, so the app sends its changes again (its edit is never taken as arrived when it
/// did not).
enum ClientChangeTokens {
    /// Whose token it is: a user's, on the device they named (`X-Stratus-Device-ID`; a client
    /// naming none is one device of its user).
    static func client(user: String, device: String?) -> String {
        "\(user)\u{1F}\(device ?? "")"
    }
}
