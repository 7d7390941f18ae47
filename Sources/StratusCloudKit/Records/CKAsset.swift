import Foundation
import StratusModel

/// A file a record field holds. Saving the record uploads the file (unless the server already
/// holds those bytes for the field); a fetched record's asset is downloaded to a local file,
/// checked against its checksum, whose URL is ``fileURL``.
/// Immutable, as Apple's; archived under Apple's keys (`AssetFileURL`, `AssetSize`) with the
/// server's value for the bytes, so an archived record keeps an asset not yet uploaded.
public final class CKAsset: NSObject, NSSecureCoding, CKRecordValue, Sendable {
    public let fileURL: URL?
    /// The server's value for the bytes, when they came from (or went to) the server.
    let stored: AssetValue?

    public init(fileURL: URL) {
        self.fileURL = fileURL
        self.stored = nil
    }

    init(fileURL: URL?, stored: AssetValue) {
        self.fileURL = fileURL
        self.stored = stored
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKAsset else { return false }
        return fileURL == other.fileURL && stored?.fileChecksum == other.stored?.fileChecksum
    }

    public override var hash: Int { fileURL?.hashValue ?? stored?.fileChecksum?.hashValue ?? 0 }

    // MARK: - Coding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        if let fileURL { coder.encode(fileURL as NSURL, forKey: "AssetFileURL") }
        if let size = stored?.size {
            coder.encode(Int64(size), forKey: "AssetSize")
            coder.encode(true, forKey: "AssetHasSize")
        }
        if let stored, let data = try? JSONEncoder().encode(stored) { coder.encode(data as NSData, forKey: "StratusAssetValue") }
    }

    /// An asset from an archive: its file, and the server's value when it had one (an asset
    /// archived by Apple's framework has its file only, so saving uploads it again; one with
    /// neither decodes with no file, as Apple's `fileURL` may be `nil`, and fails to upload).
    public init?(coder: NSCoder) {
        fileURL = coder.object(NSURL.self, "AssetFileURL") as URL?
        stored = (coder.data("StratusAssetValue")).flatMap { try? JSONDecoder().decode(AssetValue.self, from: $0) }
    }
}
