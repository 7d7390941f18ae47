import Crypto
import Foundation
import StratusCloudKit
import StratusModel

/// The asset files of a device's mirror: a directory beside the store file holding each asset's
/// bytes once, named by their SHA-256 (the server's `fileChecksum`). A photo the app attaches is
/// copied in before it is uploaded; a fetched record's assets are downloaded in before the
/// record is imported, so a record in the mirror always has its files.
public struct LocalAssets: Sendable {
    public let directory: URL

    /// The asset directory of the store at `storePath`.
    init(storePath: String) {
        self.directory = URL(fileURLWithPath: storePath + "-assets", isDirectory: true)
    }

    /// The file of an asset, whether or not it is here yet.
    public func file(for checksum: String) -> URL {
        directory.appendingPathComponent(checksum)
    }

    /// Whether the bytes of `checksum` are here.
    public func contains(_ checksum: String) -> Bool {
        FileManager.default.fileExists(atPath: file(for: checksum).path)
    }

    /// Copies a file in and answers the asset value that names it (not uploaded yet: no receipt).
    public func add(contentsOf source: URL) throws -> AssetValue {
        try add(Data(contentsOf: source))
    }

    /// Keeps bytes and answers the asset value that names them.
    public func add(_ data: Data) throws -> AssetValue {
        let checksum = Self.checksum(of: data)
        if !contains(checksum) { try write(data, as: checksum) }
        return AssetValue(fileChecksum: checksum, size: Int64(data.count))
    }

    /// Keeps downloaded bytes under their checksum, refusing bytes that do not match it.
    func store(_ data: Data, as checksum: String) throws {
        guard Self.checksum(of: data) == checksum else {
            throw CKError(.assetNotAvailable, "downloaded asset does not match its checksum \(checksum)")
        }
        try write(data, as: checksum)
    }

    /// Removes every asset file (sign-out, account switch).
    func removeAll() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Written to a temporary name and renamed: a file under a checksum is always whole.
    private func write(_ data: Data, as checksum: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString)")
        try data.write(to: temporary)
        _ = try? FileManager.default.removeItem(at: file(for: checksum))
        try FileManager.default.moveItem(at: temporary, to: file(for: checksum))
    }

    static func checksum(of data: Data) -> String {
        Hex.encode(SHA256.hash(data: data))
    }
}
