import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusCloudKit
import StratusModel

/// Assets as CKWS moves them: an upload URL from `assets/upload`, the bytes `POST`ed there, the
/// answered dictionary saved in a record field; bytes fetched from a record's `downloadURL`.
extension CloudDatabase {
    /// Uploads bytes for a field of a record in `zoneID` and answers the value to save in it
    /// (carrying the receipt).
    public func uploadAsset(
        _ data: Data, recordType: String, fieldName: String, recordName: String? = nil, in zoneID: ZoneID
    ) async throws(CloudError) -> AssetValue {
        let request = AssetUploadRequest(
            zoneID: zoneID, tokens: [.init(recordName: recordName, recordType: recordType, fieldName: fieldName)]
        )
        let tokens = try await transport.post("\(scope.rawValue)/assets/upload", request, as: AssetUploadResponse.self).tokens
        guard let url = tokens.first?.url else { throw CloudError(.serverRejectedRequest, "assets/upload answered no URL") }
        let answer = try await transport.exchange(
            .POST, url: url, body: ByteBuffer(data: data), contentType: "application/octet-stream", timeout: .seconds(300)
        )
        do {
            return try JSONDecoder().decode(AssetUploadResult.self, from: answer).singleFile
        } catch {
            throw CloudError(.serverRejectedRequest, "the upload answered no singleFile: \(error)")
        }
    }

    /// The bytes of a fetched asset, checked against its `fileChecksum`. The `${f}` file-name
    /// placeholder of its `downloadURL` is replaced with `fileName` (default: the checksum) first,
    /// as CloudKit clients do.
    public func downloadAsset(_ asset: AssetValue, fileName: String? = nil, limit: Int = 256 << 20) async throws(CloudError) -> Data {
        guard let downloadURL = asset.downloadURL else { throw CloudError(.invalidArguments, "the asset has no downloadURL: fetch its record") }
        let url = AssetValue.fetchURL(downloadURL, fileName: fileName ?? asset.fileChecksum ?? "asset")
        let data = try await transport.exchange(.GET, url: url, body: nil, contentType: "application/octet-stream", timeout: .seconds(300), limit: limit)
        if let checksum = asset.fileChecksum, LocalAssets.checksum(of: data) != checksum {
            throw CloudError(.serverRejectedRequest, "downloaded asset does not match its checksum \(checksum)")
        }
        return data
    }

    /// `assets/rereference`: each record field's asset value with fresh receipts, to save the
    /// same bytes in another record.
    public func rereferenceAssets(_ fields: [(recordName: String, fieldName: String)], in zoneID: ZoneID)
        async throws(CloudError) -> [Result<Field, CloudError>]
    {
        let request = RereferenceAssetsRequest(zoneID: zoneID, assets: fields.map { .init(recordName: $0.recordName, fieldName: $0.fieldName) })
        return try await transport.post("\(scope.rawValue)/assets/rereference", request, as: RereferenceAssetsResponse.self).assets.map { entry in
            switch entry {
            case .success(let asset): .success(asset.field)
            case .failure(let error): .failure(CloudError(error))
            }
        }
    }
}
