/// Lowercase hexadecimal text of bytes: how Stratus writes digests (asset checksums) and secrets,
/// the same on the server and in clients.
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex, two characters a byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        if let text = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) { return text }
        return Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// `bytes` as lowercase hex, written straight into the string's storage (digests: on every
    /// request's credential lookup).
    public static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: 2 * bytes.count) { text in
            for (offset, byte) in bytes.enumerated() {
                text[2 * offset] = digits[Int(byte >> 4)]
                text[2 * offset + 1] = digits[Int(byte & 0x0f)]
            }
            return 2 * bytes.count
        }
    }
}
