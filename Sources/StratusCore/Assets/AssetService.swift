import Foundation
import NIOCore
import StratusModel
import StratusStore
import Synchronization

/// CloudKit's asset flow: `assets/upload` hands out upload URLs on this server; the bytes
/// `POST`ed there are stored as a content-addressed blob and answered with a receipt; a record
/// save presents the receipt (see ``AssetReceipts``); fetched records carry signed, expiring
/// download URLs (see ``AssetLinks``); `assets/rereference` hands out fresh receipts for bytes a
/// record already holds; collection removes blobs no record references.
public struct AssetService: Sendable {
    let store: any RecordStore & ShareStore & AssetStore
    let blobs: any BlobStore
    let access: DatabaseAccess
    let configuration: CoreConfiguration
    let keys: AssetKeys

    /// How long the scheduled collection leaves an unreferenced blob, in seconds.
    public var collectionGraceSeconds: Int64 { configuration.assetCollectionGraceSeconds }

    // MARK: - Upload

    /// Upload URLs for the request's tokens, on `origin` (the host the client reached).
    public func uploadURLs(_ request: AssetUploadRequest, scope: RequestScope) async throws(CoreError) -> AssetUploadResponse {
        let database = try access.database(for: scope)
        guard !request.tokens.isEmpty else { throw CoreError.badRequest("tokens must name at least one asset") }
        try configuration.checkCount(request.tokens.count, of: "tokens")
        guard let user = scope.caller.userRecordName else { throw access.authenticationRequired(scope) }
        for token in request.tokens {
            guard NameRules.isValidIdentifier(token.recordType) else { throw CoreError.badRequest("invalid recordType '\(token.recordType)'") }
            guard NameRules.isValidIdentifier(token.fieldName) else { throw CoreError.badRequest("invalid fieldName '\(token.fieldName)'") }
        }
        let target = try await CoreError.translating { () async throws(StoreError) in
            try await ZoneTarget.resolve(request.zoneID, in: database, access: access, store: store)
        }
        guard target != nil else { throw CoreError(.zoneNotFound, "Zone not found") }
        let signer = try await keys.signer(store)
        let expires = configuration.now() + configuration.assetUploadURLSeconds * 1000
        let tokens = request.tokens.map { token in
            let ticket = UploadTicket(
                id: UUID().uuidString, owner: user, container: scope.database.container, environment: scope.database.environment,
                recordType: token.recordType, fieldName: token.fieldName, expires: expires
            )
            return AssetUploadResponse.Token(
                recordName: token.recordName ?? UUID().uuidString, fieldName: token.fieldName,
                url: "\(scope.origin)/stratus/v1/assets/upload/\(signer.sign(ticket, for: .upload))"
            )
        }
        return AssetUploadResponse(tokens: tokens)
    }

    /// An upload URL's ticket, checked before a byte of its body is read: made by this
    /// server, not expired, not used, and `declaredLength` (the `Content-Length`) within the limit.
    public func admit(ticket token: String, declaredLength: Int64?) async throws(CoreError) -> AdmittedUpload {
        let signer = try await keys.signer(store)
        guard let ticket = signer.verify(token, as: UploadTicket.self, for: .upload) else { throw CoreError(.notFound, "unknown upload URL") }
        guard configuration.now() < ticket.expires else {
            throw CoreError.badRequest("the upload URL has expired: ask assets/upload for a new one")
        }
        let limit = configuration.limits.assetBytes
        if let declaredLength, declaredLength > limit { throw Self.tooLarge(limit) }
        let store = self.store
        let used = try await CoreError.translating { () async throws(StoreError) in try await store.uploadExists(ticket.id) }
        guard !used else { throw Self.usedURL }
        return AdmittedUpload(ticket: ticket)
    }

    /// Stores the bytes of an admitted upload and answers the receipt. The size limit is checked
    /// again as bytes stream to disk; nothing is kept from an upload that fails.
    public func receive<Bytes: AsyncSequence>(
        _ upload: AdmittedUpload, bytes: Bytes, deadline: ContinuousClock.Instant
    ) async throws(CoreError) -> AssetUploadResult where Bytes.Element == ByteBuffer {
        let signer = try await keys.signer(store)
        let ticket = upload.ticket
        let limit = configuration.limits.assetBytes
        let staged: StagedBlob
        do {
            staged = try await blobs.stage(bytes, limit: limit, deadline: deadline)
        } catch {
            switch error {
            case .tooLarge: throw Self.tooLarge(limit)
            case .tooSlow: throw CoreError.badRequest("the asset's bytes did not arrive in time")
            case .failed: throw CoreError.badRequest("the asset's bytes ended before they were complete")
            }
        }
        let now = configuration.now()
        let row = AssetUpload(
            uploadID: ticket.id, container: ticket.container, environment: ticket.environment, owner: ticket.owner,
            checksum: staged.checksum, size: staged.size, createdAt: now
        )
        let blobs = self.blobs
        do {
            try await store.recordUpload(row) { try blobs.place(staged) }
        } catch {
            blobs.discard(staged)
            throw error.kind == .duplicate ? Self.usedURL : CoreError(error)
        }
        let receipt = AssetReceipt(
            id: ticket.id, owner: ticket.owner, container: ticket.container, environment: ticket.environment,
            checksum: staged.checksum, size: staged.size, expires: now + configuration.assetReceiptSeconds * 1000
        )
        return AssetUploadResult(singleFile: AssetValue(
            fileChecksum: staged.checksum, size: staged.size, referenceChecksum: staged.checksum,
            wrappingKey: Self.opaqueWrappingKey(), receipt: signer.sign(receipt, for: .receipt)
        ))
    }

    /// Stratus stores assets unencrypted: the wrapping key is an opaque value clients echo.
    private static func opaqueWrappingKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }

    private static func tooLarge(_ limit: Int64) -> CoreError {
        CoreError.limitExceeded("the asset is larger than \(limit) bytes, the limit for one asset")
    }

    private static let usedURL = CoreError.badRequest("the upload URL was used already: ask assets/upload for a new one")

    // MARK: - Download

    /// The blob a download URL names: its file and size.
    /// - Throws: `NOT_FOUND` for a URL this server did not make or bytes no longer stored;
    ///   `BAD_REQUEST` for an expired URL.
    public func download(ticket token: String) async throws(CoreError) -> (path: String, size: Int64, checksum: String) {
        let signer = try await keys.signer(store)
        guard let ticket = signer.verify(token, as: DownloadTicket.self, for: .download) else { throw CoreError(.notFound, "unknown download URL") }
        guard configuration.now() < ticket.expires else {
            throw CoreError.badRequest("the download URL has expired: fetch the record again for a new one")
        }
        let path = blobs.path(of: ticket.checksum)
        // The file's own size: a record's `size` is what a client sent back, not a fact.
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber else {
            throw CoreError(.notFound, "the asset is no longer stored")
        }
        return (path, size.int64Value, ticket.checksum)
    }

    /// What fetched records need to carry download URLs for a request.
    func links(for scope: RequestScope) async throws(CoreError) -> AssetLinks {
        AssetLinks(
            signer: try await keys.signer(store), origin: scope.origin,
            expires: configuration.now() + configuration.assetDownloadURLSeconds * 1000
        )
    }

    /// What a records/modify needs to check receipts.
    func receipts(for scope: RequestScope, user: String) async throws(CoreError) -> AssetReceipts {
        AssetReceipts(
            signer: try await keys.signer(store), owner: user, container: scope.database.container,
            environment: scope.database.environment, now: configuration.now()
        )
    }
}

/// An upload URL checked and found good: its bytes may be read.
public struct AdmittedUpload: Sendable {
    let ticket: UploadTicket
}

/// The store's signing key, read once and kept.
final class AssetKeys: Sendable {
    private let cached = Mutex<AssetSigner?>(nil)

    func signer(_ store: any AssetStore) async throws(CoreError) -> AssetSigner {
        if let signer = cached.withLock({ $0 }) { return signer }
        do {
            let signer = AssetSigner(key: try await store.assetSigningKey())
            cached.withLock { $0 = signer }
            return signer
        } catch {
            throw CoreError(error)
        }
    }
}
