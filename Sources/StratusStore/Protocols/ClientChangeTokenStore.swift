/// The client change token each device last sent with a modify the server took in a zone
/// (`CKModifyRecordsOperation.clientChangeTokenData`): kept by the zone's incarnation
/// (``StoredZone/id``), so a zone deleted and made again starts with none (deleting a zone drops
/// its tokens), and by client — the user and the device they named — so no device reads another's.
public protocol ClientChangeTokenStore: Sendable {
    /// Leaves `token` as the one `client` last sent for the zone incarnation `zone`, as of the
    /// zone's change sequence `seq` after the modify — unless a token of a later modify is there
    /// already (two modifies of one device may finish in either order: the later commit's stays).
    func setClientChangeToken(_ token: String, zone: Int64, client: String, asOf seq: Int64) async throws(StoreError)
    /// The token `client` last sent for the zone incarnation `zone`, or `nil`.
    func clientChangeToken(zone: Int64, client: String) async throws(StoreError) -> String?
}
