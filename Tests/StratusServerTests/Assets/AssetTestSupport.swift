import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// Asset calls as a CKWS client makes them: upload URLs, raw bytes, downloads by URL.
extension TestServer {
    /// The path and query of a URL the server handed out (the test client speaks to its own socket).
    /// The braces of a download URL's `${f}` placeholder are not URL characters: they are sent
    /// percent-encoded, as a browser sends them.
    static func path(of url: String) -> String {
        let url = url.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
        guard let components = URLComponents(string: url) else { return url }
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// An upload URL for `Destination.photo` in `zone`.
    func uploadURL(zone: String = "Trips", field: String = "photo", as account: String = "alice") async throws -> String {
        let request = AssetUploadRequest(zoneID: ZoneID(zoneName: zone), tokens: [.init(recordType: "Destination", fieldName: field)])
        let response = try await call("assets/upload", request, as: account, expecting: AssetUploadResponse.self)
        guard let url = response.tokens.first?.url else { throw TestFailure("no upload URL") }
        return url
    }

    /// POSTs bytes to an upload URL.
    func put(_ bytes: [UInt8], to url: String, method: HTTPRequest.Method = .post) async throws -> TestResponse {
        try await client.execute(
            uri: Self.path(of: url), method: method, headers: [.contentType: "application/octet-stream"], body: ByteBuffer(bytes: bytes)
        )
    }

    /// Uploads bytes and returns the asset value to save.
    func upload(_ bytes: [UInt8], zone: String = "Trips", as account: String = "alice") async throws -> AssetValue {
        let response = try await put(bytes, to: try await uploadURL(zone: zone, as: account))
        guard response.status == .ok else { throw TestFailure("upload: \(response.status) \(response.text)") }
        return try response.decode(AssetUploadResult.self).singleFile
    }

    /// GETs a download URL.
    func download(_ url: String, headers: HTTPFields = [:], method: HTTPRequest.Method = .get) async throws -> TestResponse {
        try await client.execute(uri: Self.path(of: url), method: method, headers: headers, body: nil)
    }

    /// The asset value of a record's `photo` field, as a lookup answers it.
    func photo(of name: String, zone: String = "Trips", database: String = "private", owner: String? = nil, as account: String? = "alice")
        async throws -> AssetValue?
    {
        let request = LookupRecordsRequest(records: [.init(recordName: name)], zoneID: ZoneID(zoneName: zone, ownerRecordName: owner))
        let response = try await post("records/lookup", request, database: database, as: account)
        guard response.status == .ok, case .success(let record)? = try response.decode(RecordsResponse.self).records.first,
            case .asset(let asset)? = record.fields?["photo"]?.value
        else { return nil }
        return asset
    }

    /// Blob files in place (not staged).
    var blobFiles: [String] {
        let root = blobDirectory.appendingPathComponent("sha256").path
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return folders.flatMap { folder in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? [] }
    }

    /// Files of uploads in flight (or cut short).
    var stagedFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: blobDirectory.appendingPathComponent("staging").path)) ?? []
    }
}

enum Photos {
    /// `count` pseudo-random bytes (seeded, so a failure repeats).
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static func checksum(_ bytes: some Sequence<UInt8>) -> String {
        Hex.encode(SHA256.hash(data: Array(bytes)))
    }

    /// A Destination with a photo.
    static func save(_ name: String, photo: AssetValue, operation: RecordOperationType = .create) -> RecordOperation {
        RecordOperation(operation, Records.destination(name, caption: name, extra: ["photo": Field(.asset(photo), type: .assetID)]))
    }
}
