import Crypto
import Foundation
import _CryptoExtras

/// Sign-in passwords, stored as PBKDF2-SHA256 hashes: `pbkdf2-sha256$<rounds>$<salt>$<hash>` (Base64).
enum Passwords {
    /// OWASP's figure for PBKDF2-SHA256 (and the least swift-crypto accepts).
    static let rounds = 210_000

    static func hash(_ password: String) throws -> String {
        let salt = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        let derived = try derive(password, salt: salt, rounds: rounds)
        return "pbkdf2-sha256$\(rounds)$\(salt.base64EncodedString())$\(derived.base64EncodedString())"
    }

    /// Whether `password` matches `stored`, compared in constant time.
    static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]),
            let salt = Data(base64Encoded: parts[2]), let expected = Data(base64Encoded: parts[3]),
            let derived = try? derive(password, salt: salt, rounds: rounds)
        else { return false }
        return derived.count == expected.count && zip(derived, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func derive(_ password: String, salt: Data, rounds: Int) throws -> Data {
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Data(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, rounds: rounds)
        return key.withUnsafeBytes { Data($0) }
    }
}
