import Foundation
import StratusModel

/// What Core needs to know that is chosen at start-up: limits, the clock, where sign-in lives.
public struct CoreConfiguration: Sendable {
    public var limits: ServiceLimits
    /// The sign-in page sent as `redirectURL` with AUTHENTICATION_REQUIRED.
    public var signInURL: String
    /// Share URLs are this prefix followed by the share's short GUID.
    public var shareURLPrefix: String
    /// Milliseconds since 1970; injected so tests can pin time.
    public var now: @Sendable () -> Int64
    /// Transient faults injected on every CKWS request at this rate (`--buggify`); `nil`: none.
    public var buggify: BuggifySetting?
    /// How far a server-to-server request's date may be from the server's clock, in seconds.
    public var signatureWindowSeconds = 300
    /// Whether the sign-in page is a development one (`--dev`): it lists every account to pick
    /// without a password and hands tokens to loopback pages no API token registered.
    public var signInListsAccounts = false
    /// Whether queries need the indexes CloudKit requires in every environment (`--require-indexes`):
    /// development checks them as production does, and a query without filters needs a QUERYABLE
    /// index on `recordName` (`___recordId`) in both. Off: development answers every query.
    public var requireIndexes = false
    /// How long an upload URL may be used (CloudKit's ~15 minutes).
    public var assetUploadURLSeconds: Int64 = 15 * 60
    /// How long a receipt may be attached to a record.
    public var assetReceiptSeconds: Int64 = 24 * 3600
    /// How long a download URL in a fetched record serves its bytes.
    public var assetDownloadURLSeconds: Int64 = 3600
    /// How long the scheduled collection leaves an unreferenced blob: longer than a receipt
    /// lives, so bytes a client was given a receipt for are there when it saves the record.
    public var assetCollectionGraceSeconds: Int64 { assetReceiptSeconds + 3600 }

    public init(
        limits: ServiceLimits = .strict,
        signInURL: String = "http://127.0.0.1:8080/stratus/v1/auth/signin",
        shareURLPrefix: String = "http://127.0.0.1:8080/share/",
        buggify: BuggifySetting? = nil,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) {
        self.limits = limits
        self.signInURL = signInURL
        self.shareURLPrefix = shareURLPrefix
        self.buggify = buggify
        self.now = now
    }
}
