import StratusModel

/// A finished upload, as the store keeps it: whose it is and which bytes it stored. Its
/// `uploadID` is the receipt's; a record claims it once.
public struct AssetUpload: Sendable, Hashable {
    public var uploadID: String
    public var container: String
    public var environment: ContainerEnvironment
    /// The account the receipt is for: only it may attach the asset to a record.
    public var owner: String
    public var checksum: String
    public var size: Int64
    /// Milliseconds since 1970.
    public var createdAt: Int64

    public init(
        uploadID: String, container: String, environment: ContainerEnvironment, owner: String, checksum: String, size: Int64,
        createdAt: Int64
    ) {
        self.uploadID = uploadID
        self.container = container
        self.environment = environment
        self.owner = owner
        self.checksum = checksum
        self.size = size
        self.createdAt = createdAt
    }
}

/// A receipt a record write presents: the upload it names, for the field it fills. The store
/// claims it inside the batch: a receipt serves one record field (the same one again on a
/// resend), and only while its blob is stored.
public struct AssetClaim: Sendable, Hashable {
    public var uploadID: String
    public var checksum: String
    public var fieldName: String

    public init(uploadID: String, checksum: String, fieldName: String) {
        self.uploadID = uploadID
        self.checksum = checksum
        self.fieldName = fieldName
    }
}

/// What one collection did.
public struct BlobCollection: Sendable, Hashable {
    /// Blobs removed (rows and files).
    public var removed: Int
    /// Blobs still stored.
    public var kept: Int

    public init(removed: Int, kept: Int) {
        self.removed = removed
        self.kept = kept
    }
}

/// The store's side of assets: uploads and their receipts, the blobs registered, and which
/// records reference which blob (kept by the record writes themselves).
public protocol AssetStore: Sendable {
    /// The secret that signs upload URLs, receipts and download URLs: made on first use and
    /// kept, so every instance on the store and every restart agrees.
    func assetSigningKey() async throws(StoreError) -> [UInt8]
    /// Whether an upload with this ID has been recorded (an upload URL serves once).
    func uploadExists(_ uploadID: String) async throws(StoreError) -> Bool
    /// Registers a finished upload: its blob (fresh for collection) and its receipt row.
    /// `place` runs inside the transaction and moves the bytes into place, so a collection
    /// never sees a blob without its file or removes a file an upload has just placed.
    /// - Throws: ``StoreError/Kind/duplicate`` when the upload ID was used already.
    func recordUpload(_ upload: AssetUpload, place: @escaping @Sendable () throws -> Void) async throws(StoreError)
    /// The size of a registered blob, or `nil`.
    func blobSize(_ checksum: String) async throws(StoreError) -> Int64?
    /// Removes blobs no record references, unreferenced (and not uploaded again) since
    /// `cutoff` (milliseconds) or before; `remove` deletes a blob's file inside the transaction
    /// that drops its row. Forgets uploads made before `uploadsBefore` (their receipts have
    /// expired). Works in small transactions, never holding the writer long.
    func collectBlobs(
        unreferencedSince cutoff: Int64, now: Int64, uploadsBefore: Int64, remove: @escaping @Sendable (String) throws -> Void
    ) async throws(StoreError) -> BlobCollection
    /// Removes the file of a blob the store does not register (a crash between placing the
    /// bytes and committing); `false` when the blob is registered after all.
    func removeUnregisteredBlob(_ checksum: String, remove: @escaping @Sendable (String) throws -> Void) async throws(StoreError) -> Bool
    /// Every registered blob's checksum.
    func registeredBlobs() async throws(StoreError) -> Set<String>
}
