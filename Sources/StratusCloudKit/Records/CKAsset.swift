import Foundation
import StratusModel

/// A file a record field holds. Saving the record uploads the file (unless the server already
/// holds those bytes for the field); a fetched record's asset is downloaded to a local file,
/// checked against its checksum, whose URL is ``fileURL``.
public final class CKAsset: NSObject, CKRecordValue, @unchecked Sendable {
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
}
