import Foundation

/// The `uuid` of a per-item error: 32 lowercase hex digits, the same shape as the request ID a
/// request-level error carries, so a client sees one format everywhere.
enum ErrorUUID {
    static func make() -> String {
        let uuid = UUID().uuid
        return Secrets.hex(withUnsafeBytes(of: uuid) { Array($0) })
    }
}
