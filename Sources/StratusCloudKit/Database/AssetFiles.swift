import Crypto
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel

/// Moves asset bytes as CloudKit Web Services does: an upload URL from `assets/upload`, the
/// file `POST`ed there, the answered value saved in the field; a fetched asset's `downloadURL`
/// (its `${f}` placeholder filled in) read into a local file, checked against its checksum.
enum AssetFiles {
    /// Uploads the assets of `record`'s fields (changed ones, or all) that the server does not
    /// hold yet, replacing each with its uploaded value. Answers each file by checksum.
    static func upload(_ record: CKRecord, all: Bool, in database: CKDatabase) async throws -> [String: URL] {
        var files: [String: URL] = [:]
        for (key, asset) in record.assetsToUpload(all: all) {
            guard let file = asset.fileURL else { continue }
            let data: Data
            do { data = try Data(contentsOf: file) } catch {
                throw CKError(.assetFileNotFound, "cannot read the asset of '\(key)' at \(file.path): \(error)")
            }
            let request = AssetUploadRequest(
                zoneID: record.recordID.zoneID.wire,
                tokens: [.init(recordName: record.recordID.recordName, recordType: record.recordType, fieldName: key)]
            )
            let tokens = try await database.post("assets/upload", request, as: AssetUploadResponse.self).tokens
            guard let url = tokens.first?.url else { throw CKError(.serverRejectedRequest, "assets/upload answered no URL") }
            let transport = try database.container.requireTransport()
            let answer: Data
            do {
                answer = try await transport.exchange(
                    .POST, url: url, body: ByteBuffer(data: data), contentType: "application/octet-stream", timeout: .seconds(300)
                )
            } catch {
                throw CKError(error)
            }
            guard let uploaded = try? JSONDecoder().decode(AssetUploadResult.self, from: answer).singleFile else {
                throw CKError(.serverRejectedRequest, "the upload of '\(key)' answered no singleFile")
            }
            record.replaceAsset(key, with: CKAsset(fileURL: file, stored: uploaded))
            files[uploaded.fileChecksum ?? checksum(of: data)] = file
        }
        return files
    }

    /// Downloads every asset of `fields` into the cache (once per checksum): each file by checksum.
    static func download(_ fields: [String: Field], through container: CKContainer) async throws -> [String: URL] {
        var files: [String: URL] = [:]
        for field in fields.values where field.type.isAsset {
            for asset in field.value.assets {
                guard let checksum = asset.fileChecksum, files[checksum] == nil, let downloadURL = asset.downloadURL else { continue }
                // The checksum names the cache file: only a SHA-256 hex digest may.
                guard checksum.count == 64, checksum.allSatisfy(\.isHexDigit) else {
                    throw CKError(.assetNotAvailable, "the asset's checksum '\(checksum.prefix(80))' is not a SHA-256 digest")
                }
                files[checksum] = try await download(downloadURL, checksum: checksum, through: container)
            }
        }
        return files
    }

    private static func download(_ downloadURL: String, checksum: String, through container: CKContainer) async throws -> URL {
        let file = directory.appendingPathComponent(checksum)
        if FileManager.default.fileExists(atPath: file.path) { return file }
        let transport = try container.requireTransport()
        let url = AssetValue.fetchURL(downloadURL, fileName: checksum)
        let data: Data
        do {
            data = try await transport.exchange(.GET, url: url, body: nil, contentType: "application/octet-stream", timeout: .seconds(300), limit: 1 << 30)
        } catch {
            throw CKError(error)
        }
        guard AssetFiles.checksum(of: data) == checksum else {
            throw CKError(.assetNotAvailable, "the downloaded asset does not match its checksum \(checksum)")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let partial = directory.appendingPathComponent("\(checksum).\(UUID().uuidString).partial")
        try data.write(to: partial)
        if (try? FileManager.default.moveItem(at: partial, to: file)) == nil { try? FileManager.default.removeItem(at: partial) }
        return file
    }

    /// Where downloaded assets are kept (`STRATUS_ASSET_CACHE`, else a folder in the temporary directory).
    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["STRATUS_ASSET_CACHE"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("StratusCloudKit-assets", isDirectory: true)
    }

    /// Stratus's `fileChecksum`: the SHA-256 of the bytes, hex.
    static func checksum(of data: Data) -> String {
        Hex.encode(SHA256.hash(data: data))
    }
}
