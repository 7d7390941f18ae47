/// An asset field value: Apple's Asset dictionary (checksums, size, receipt, download URL).
public struct AssetValue: Sendable, Hashable, Codable {
    public var fileChecksum: String?
    public var size: Int64?
    public var referenceChecksum: String?
    public var wrappingKey: String?
    public var receipt: String?
    public var downloadURL: String?

    public init(fileChecksum: String? = nil, size: Int64? = nil, receipt: String? = nil, downloadURL: String? = nil) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.receipt = receipt
        self.downloadURL = downloadURL
    }
}
