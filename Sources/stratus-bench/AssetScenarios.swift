import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel

#if canImport(Glibc)
import Glibc
#endif

/// The asset workload: uploads (an upload URL from `assets/upload`, then the bytes `POST`ed to
/// it) and downloads of one saved asset, `concurrency` at a time, beside a plain file copy on
/// the same disk (the limit) and with the server's peak RSS sampled meanwhile.
struct AssetScenarios {
    let server: ServerUnderTest
    let client: HTTPClient
    let duration: Duration

    /// What one transfer direction measured.
    struct Transfer {
        var result: LoadRunner.Result
        var bytesPerRequest: Int
        /// The server's resident memory before the run and at its highest during it, in MB.
        var rssBefore: Double?
        var rssPeak: Double?

        var megabytesPerSecond: Double { result.requestsPerSecond * Double(bytesPerRequest) / 1_048_576 }
    }

    /// Uploads of `size` bytes (each different, so none is deduplicated), `concurrency` at a time.
    func uploads(size: Int, concurrency: Int) async throws -> (Transfer, AssetValue) {
        let tokenURL = server.url("assets/upload")
        let tokenBody = try JSONEncoder().encode(AssetUploadRequest(
            zoneID: ZoneID(zoneName: Workload.zone), tokens: [.init(recordType: "Destination", fieldName: "photo")]
        ))
        let client = self.client
        let duration = self.duration
        let last = LastAsset()
        let result = try await sampling { () async throws -> LoadRunner.Result in
            try await LoadRunner(client: client).loop(concurrency: concurrency, duration: duration) { worker, sequence in
                let answer = try await client.execute(.post(tokenURL, body: tokenBody), timeout: .seconds(60))
                let tokens = try JSONDecoder().decode(AssetUploadResponse.self, from: try await answer.body.collect(upTo: 1 << 20))
                guard let url = tokens.tokens.first?.url else { throw BenchError("assets/upload answered no URL") }
                var bytes = ByteBuffer(repeating: UInt8(truncatingIfNeeded: worker), count: size)
                bytes.setInteger(UInt64(sequence), at: 0)
                var upload = HTTPClientRequest(url: url)
                upload.method = .POST
                upload.headers.add(name: "Content-Type", value: "application/octet-stream")
                upload.body = .bytes(bytes)
                let response = try await client.execute(upload, timeout: .seconds(120))
                let body = try await response.body.collect(upTo: 1 << 20)
                if response.status == .ok, let value = try? JSONDecoder().decode(AssetUploadResult.self, from: body) {
                    last.set(value.singleFile)
                }
                return response.status == .ok
            }
        }
        guard let asset = last.value else { throw BenchError("no upload of \(size) bytes succeeded") }
        return (Transfer(result: result.value, bytesPerRequest: size, rssBefore: result.before, rssPeak: result.peak), asset)
    }

    /// Downloads of one saved asset, `concurrency` at a time.
    func downloads(of asset: AssetValue, size: Int, concurrency: Int) async throws -> Transfer {
        let name = "asset-\(UUID().uuidString)"
        var record = Workload.destination(name)
        record.fields?["photo"] = Field(.asset(asset), type: .assetID)
        let save = ModifyRecordsRequest(operations: [RecordOperation(.create, record)], zoneID: ZoneID(zoneName: Workload.zone))
        _ = try await client.execute(.post(server.url("records/modify"), body: JSONEncoder().encode(save)), timeout: .seconds(60))
        let lookup = LookupRecordsRequest(records: [.init(recordName: name)], zoneID: ZoneID(zoneName: Workload.zone))
        let answer = try await client.execute(.post(server.url("records/lookup"), body: JSONEncoder().encode(lookup)), timeout: .seconds(60))
        let records = try JSONDecoder().decode(RecordsResponse.self, from: try await answer.body.collect(upTo: 1 << 20))
        guard case .asset(let stored)? = records.records.first?.record?.fields?["photo"]?.value, let downloadURL = stored.downloadURL else {
            throw BenchError("the saved asset has no downloadURL")
        }
        // As a CloudKit client does: the `${f}` placeholder becomes a file name.
        let url = AssetValue.fetchURL(downloadURL, fileName: "photo.jpg")
        let client = self.client
        let duration = self.duration
        let result = try await sampling { () async throws -> LoadRunner.Result in
            try await LoadRunner(client: client).loop(concurrency: concurrency, duration: duration) { _, _ in
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(120))
                var received = 0
                for try await part in response.body { received += part.readableBytes }
                return response.status == .ok && received == size
            }
        }
        return Transfer(result: result.value, bytesPerRequest: size, rssBefore: result.before, rssPeak: result.peak)
    }

    /// A plain copy of a `size`-byte file on the same disk, synced as an upload is: MB/s.
    static func fileCopy(size: Int, seconds: Double = 3) throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bench-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source")
        try Data(repeating: 7, count: size).write(to: source)
        let start = Date()
        var copies = 0
        while Date().timeIntervalSince(start) < seconds {
            let data = try Data(contentsOf: source)
            let target = directory.appendingPathComponent("copy-\(copies)").path
            let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw BenchError("cannot open \(target)") }
            _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            fsync(descriptor)
            close(descriptor)
            unlink(target)
            copies += 1
        }
        return Double(copies * size) / 1_048_576 / Date().timeIntervalSince(start)
    }

    /// Runs `body` while sampling the server's RSS every 100 ms.
    private func sampling<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> (value: T, before: Double?, peak: Double?) {
        let before = server.residentMegabytes()
        let peak = PeakMemory()
        let server = self.server
        let sampler = Task {
            while !Task.isCancelled {
                if let rss = server.residentMegabytes() { peak.record(rss) }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { sampler.cancel() }
        let value = try await body()
        return (value, before, peak.value)
    }
}

/// The last asset an upload answered (shared by the workers).
private final class LastAsset: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: AssetValue?
    var value: AssetValue? { lock.withLock { stored } }
    func set(_ value: AssetValue) { lock.withLock { stored = value } }
}

/// The highest RSS sample.
private final class PeakMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var peak: Double?
    var value: Double? { lock.withLock { peak } }
    func record(_ sample: Double) { lock.withLock { peak = max(peak ?? 0, sample) } }
}
