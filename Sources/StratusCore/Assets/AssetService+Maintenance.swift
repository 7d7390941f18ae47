import Foundation
import StratusModel
import StratusStore

extension AssetService {
    // MARK: - Rereference

    /// Fresh receipts for the assets records already hold, so the caller can put the same
    /// bytes in other records without uploading them again. The caller must be able to read
    /// the records (in the shared database: records of their shares).
    public func rereference(_ request: RereferenceAssetsRequest, scope: RequestScope) async throws(CoreError) -> RereferenceAssetsResponse {
        let database = try access.database(for: scope)
        guard !request.assets.isEmpty else { throw CoreError.badRequest("assets must name at least one record field") }
        try configuration.checkCount(request.assets.count, of: "assets")
        guard let user = scope.caller.userRecordName else { throw access.authenticationRequired(scope) }
        let signer = try await keys.signer(store)
        let links = try await links(for: scope)
        let now = configuration.now()
        let store = self.store
        let access = self.access
        let resolved = try await CoreError.translating { () async throws(StoreError) in
            try await ZoneTarget.resolve(request.zoneID, in: database, access: access, store: store)
        }
        guard let target = resolved else { throw CoreError(.zoneNotFound, "Zone not found") }
        do {
            let names = request.assets.map(\.recordName)
            var found = try await store.records(named: names, in: target.zone)
            if let visible = target.visibleNames {
                found = found.map { record in record.flatMap { visible.contains($0.name) ? $0 : nil } }
            }
            var results: [ItemResult<RereferencedAsset, RecordError>] = []
            for (item, stored) in zip(request.assets, found) {
                func failure(_ code: ServerErrorCode, _ reason: String) -> ItemResult<RereferencedAsset, RecordError> {
                    .failure(RecordError(recordName: item.recordName, serverErrorCode: code, reason: reason, uuid: ErrorUUID.make()))
                }
                guard let stored, !stored.deleted else {
                    results.append(failure(.notFound, "Record not found"))
                    continue
                }
                guard let field = stored.fields[item.fieldName], field.type.isAsset else {
                    results.append(failure(.badRequest, "record '\(item.recordName)' has no asset field '\(item.fieldName)'"))
                    continue
                }
                var uploads: [AssetUpload] = []
                let value = field.value.mappingAssets { asset in
                    guard let checksum = asset.fileChecksum else { return asset }
                    let upload = AssetUpload(
                        uploadID: UUID().uuidString, container: scope.database.container, environment: scope.database.environment,
                        owner: user, checksum: checksum, size: asset.size ?? 0, createdAt: now
                    )
                    uploads.append(upload)
                    var value = asset.stored
                    value.receipt = signer.sign(AssetReceipt(
                        id: upload.uploadID, owner: user, container: upload.container, environment: upload.environment,
                        checksum: checksum, size: upload.size, expires: now + configuration.assetReceiptSeconds * 1000
                    ), for: .receipt)
                    value.downloadURL = links.url(checksum: checksum)
                    return value
                }
                for upload in uploads { try await store.recordUpload(upload) {} }
                results.append(.success(RereferencedAsset(
                    recordName: item.recordName, fieldName: item.fieldName, field: Field(value, type: field.type)
                )))
            }
            return RereferenceAssetsResponse(assets: results)
        } catch {
            throw CoreError(error)
        }
    }

    // MARK: - Collection

    /// The largest `olderThanSeconds` (a hundred years): larger ones would overflow as milliseconds.
    static let longestAge: Int64 = 3_153_600_000

    /// Removes blobs no record references, unreferenced for at least `olderThanSeconds`, and
    /// blob files a crash left unregistered; uploads still streaming are never touched.
    public func collect(olderThanSeconds: Int64) async throws(CoreError) -> CollectAssetsResponse {
        guard (0...Self.longestAge).contains(olderThanSeconds) else {
            throw CoreError.badRequest("olderThanSeconds must be 0 to \(Self.longestAge) (a hundred years)")
        }
        let now = configuration.now()
        let cutoff = now - olderThanSeconds * 1000
        let blobs = self.blobs
        do {
            // Staging files live as long as an upload may: an hour is past any deadline.
            _ = try? blobs.sweepStaging(olderThan: Double(max(olderThanSeconds, 3600)))
            let collection = try await store.collectBlobs(
                unreferencedSince: cutoff, now: now, uploadsBefore: now - configuration.assetReceiptSeconds * 1000,
                remove: { try blobs.remove($0) }
            )
            var removed = collection.removed
            let registered = try await store.registeredBlobs()
            let fileCutoff = Date().timeIntervalSince1970 - Double(olderThanSeconds)
            for file in (try? blobs.storedBlobs()) ?? [] where !registered.contains(file.checksum) && file.modified <= fileCutoff {
                if try await store.removeUnregisteredBlob(file.checksum, remove: { try blobs.remove($0) }) { removed += 1 }
            }
            return CollectAssetsResponse(removed: removed, kept: collection.kept)
        } catch {
            throw CoreError(error)
        }
    }
}
