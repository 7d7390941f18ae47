/// What anyone holding a share URL may learn before signing in (`GET /share/{shortGUID}` with
/// `Accept: application/json`; the HTML page shows the same): the share's title, its owner,
/// where it lives and how to accept it. Never a record's contents.
public struct SharePage: Sendable, Hashable, Codable {
    public var shortGUID: String
    public var url: String
    public var title: String?
    public var ownerName: String
    public var containerIdentifier: String
    public var environment: ContainerEnvironment
    /// `NONE` for invitation-only shares; anyone signed in may join a `READ_ONLY`/`READ_WRITE` one.
    public var publicPermission: SharePermission
    /// Whether the share covers a whole zone (else a record hierarchy).
    public var zoneWide: Bool
    /// How a client accepts: the CKWS call that joins the share.
    public var accept: String

    public init(
        shortGUID: String, url: String, title: String?, ownerName: String, containerIdentifier: String, environment: ContainerEnvironment,
        publicPermission: SharePermission, zoneWide: Bool, accept: String
    ) {
        self.shortGUID = shortGUID
        self.url = url
        self.title = title
        self.ownerName = ownerName
        self.containerIdentifier = containerIdentifier
        self.environment = environment
        self.publicPermission = publicPermission
        self.zoneWide = zoneWide
        self.accept = accept
    }
}
