/// The client change token each device last sent with a modify that changed a zone
/// (`CKModifyRecordsOperation.clientChangeTokenData`): kept by the zone's incarnation
/// (``StoredZone/id``), so a zone deleted and made again starts with none, and by client — the
/// user and the device they named — so no device reads another's.
public protocol ClientChangeTokenStore: Sendable {
    /// Leaves `token` as the one `client` last sent for the zone incarnation `zone`.
    func setClientChangeToken(_ token: String, zone: Int64, client: String) async throws(StoreError)
    /// The token `client` last sent for the zone incarnation `zone`, or `nil`.
    func clientChangeToken(zone: Int64, client: String) async throws(StoreError) -> String?
}
