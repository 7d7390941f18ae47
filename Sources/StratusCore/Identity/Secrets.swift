import Crypto
import Foundation
import StratusModel

/// Mints credentials and hashes them for storage. Only hashes are stored; a secret is shown once.
enum Secrets {
    /// 64 lowercase hex characters (API tokens, admin tokens).
    static func hexToken() -> String {
        hex(randomBytes(32))
    }

    /// A long base64-style token (web auth tokens), with `+` and `/` mapped to URL-safe characters
    /// so it survives query strings unescaped.
    static func webAuthToken() -> String {
        Data(randomBytes(75)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "_")
            .replacingOccurrences(of: "/", with: "_")
    }

    /// `_` followed by 32 hex characters, as CloudKit names users.
    static func userRecordName() -> String {
        "_" + hex(randomBytes(16))
    }

    /// SHA-256 of the secret, hex encoded: what the store keeps.
    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).withUnsafeBytes { Hex.encode($0) }
    }

    /// Lowercase hex of `bytes` (on every request's credential lookup: no `String(format:)`).
    static func hex(_ bytes: some Sequence<UInt8>) -> String { Hex.encode(bytes) }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
