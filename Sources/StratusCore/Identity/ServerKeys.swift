import Crypto
import Foundation
import Synchronization
import StratusModel
import StratusStore

/// Server-to-server keys (CKWS §2.2): ECDSA P-256 public keys registered per container
/// environment, and the verification of signed requests — key ID, a date in exactly Apple's
/// `yyyy-MM-ddTHH:mm:ssZ` form within a window, `SignatureV1` (DER, or raw r‖s, Base64) over
/// `date:Base64(SHA-256(body)):path`. A signature is accepted once (replays within the window are
/// refused). S2S reaches the public database only, acting as the developer (``Caller/developer``).
public struct ServerKeys: Sendable {
    /// The caller a signed request acts as (CloudKit's developer role).
    public static let developer = "_developer"

    let store: any ContainerStore & CredentialStore
    let configuration: CoreConfiguration
    let seen: SeenSignatures

    /// Registers a PEM public key (`BEGIN PUBLIC KEY`, P-256) and returns its key ID (64 hex digits).
    /// - Throws: `BAD_REQUEST` for a key that is not P-256 PEM; `NOT_FOUND` for an unknown container.
    public func register(_ request: RegisterServerKeyRequest) async throws(CoreError) -> RegisterServerKeyResponse {
        guard (try? P256.Signing.PublicKey(pemRepresentation: request.publicKeyPEM)) != nil else {
            throw CoreError.badRequest("publicKeyPEM is not an ECDSA P-256 public key in PEM form (openssl ec -in key.pem -pubout)")
        }
        let exists: Bool
        do { exists = try await store.containerExists(request.container) } catch { throw CoreError(error) }
        guard exists else { throw CoreError(.notFound, "no container '\(request.container)'") }
        let keyID = Secrets.hexToken()
        do {
            try await store.addServerKey(StoredServerKey(
                keyID: keyID, container: request.container, environment: request.environment, publicKeyPEM: request.publicKeyPEM
            ))
        } catch {
            throw CoreError(error)
        }
        return RegisterServerKeyResponse(keyID: keyID)
    }

    /// Revokes a key: requests signed with it fail from now on.
    /// - Throws: `NOT_FOUND` for an unknown or already revoked key.
    public func revoke(keyID: String) async throws(CoreError) {
        let revoked: Bool
        do { revoked = try await store.revokeServerKey(id: keyID) } catch { throw CoreError(error) }
        guard revoked else { throw CoreError(.notFound, "no server-to-server key '\(keyID)'") }
    }

    /// The caller of a signed request to `database`; `path` is the request's path with its query.
    /// - Throws: `AUTHENTICATION_FAILED` for an unknown or revoked key, one of another container
    ///   or environment, a date not in the form Apple signs (fractional seconds and offsets are
    ///   refused) or outside the window, a bad signature or a replay; `ACCESS_DENIED`
    ///   for a database other than public.
    public func authenticate(
        keyID: String, date: String, signature: String, body: Data, path: String, for database: DatabaseRef
    ) async throws(CoreError) -> Caller {
        let key: StoredServerKey?
        do { key = try await store.serverKey(id: keyID) } catch { throw CoreError(error) }
        guard let key, key.container == database.container, key.environment == database.environment else {
            // Only on the way out: say when it is the container the server does not have.
            let known: Bool
            do { known = try await store.containerExists(database.container) } catch { throw CoreError(error) }
            guard known else { throw CoreError.unknownContainer(database.container) }
            throw CoreError(.authenticationFailed, "unknown server-to-server key ID for \(database.container) (\(database.environment.rawValue))")
        }
        guard let signedAt = Self.parse(date) else {
            throw CoreError(
                .authenticationFailed,
                "X-Apple-CloudKit-Request-ISO8601Date must be yyyy-MM-ddTHH:mm:ssZ, like 2016-01-25T22:15:43Z (UTC, no fractional seconds, no offset)"
            )
        }
        let window = Int64(configuration.signatureWindowSeconds) * 1000
        let now = configuration.now()
        guard abs(now - signedAt) <= window else {
            throw CoreError(.authenticationFailed, "the request date is more than \(configuration.signatureWindowSeconds) s from the server's clock")
        }
        guard Self.verify(keyPEM: key.publicKeyPEM, date: date, body: body, path: path, signature: signature) else {
            throw CoreError(.authenticationFailed, "the signature does not match date:bodyHash:path for this key")
        }
        guard seen.firstUse(of: signature, until: signedAt + window, now: now) else {
            throw CoreError(.authenticationFailed, "this signature was already used (replay)")
        }
        guard database.scope == .public else {
            throw CoreError(.accessDenied, "server-to-server keys reach the public database only")
        }
        return .developer
    }

    /// Both empty-body hash forms, and the path with and without its query, as clients sign them.
    static func verify(keyPEM: String, date: String, body: Data, path: String, signature: String) -> Bool {
        guard let key = try? P256.Signing.PublicKey(pemRepresentation: keyPEM), let bytes = Data(base64Encoded: signature) else { return false }
        let parsed = (try? P256.Signing.ECDSASignature(derRepresentation: bytes)) ?? (try? P256.Signing.ECDSASignature(rawRepresentation: bytes))
        guard let parsed else { return false }
        let hashes = body.isEmpty ? ["", Data(SHA256.hash(data: Data())).base64EncodedString()] : [Data(SHA256.hash(data: body)).base64EncodedString()]
        let paths = [path, String(path.split(separator: "?", maxSplits: 1)[0])]
        for hash in hashes {
            for candidate in paths where key.isValidSignature(parsed, for: Data("\(date):\(hash):\(candidate)".utf8)) { return true }
        }
        return false
    }

    /// Milliseconds since 1970 of a date in Apple's signing form, `yyyy-MM-ddTHH:mm:ssZ` (UTC, no
    /// fractional seconds, no offset); `nil` for anything else, so what is signed is one string.
    static func parse(_ date: String) -> Int64? {
        let shape = Array("dddd-dd-ddTdd:dd:ddZ".utf8)
        let bytes = Array(date.utf8)
        guard bytes.count == shape.count else { return nil }
        for (byte, expected) in zip(bytes, shape) {
            let matches = expected == UInt8(ascii: "d") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
            guard matches else { return nil }
        }
        return (try? Date(date, strategy: .iso8601)).map { Int64($0.timeIntervalSince1970 * 1000) }
    }
}

/// Signatures accepted within their window, so none is accepted twice.
final class SeenSignatures: Sendable {
    private let entries = Mutex<[String: Int64]>([:])

    /// Records `signature` until `expiry`; `false` when it was seen already.
    func firstUse(of signature: String, until expiry: Int64, now: Int64) -> Bool {
        entries.withLock { seen in
            if seen.count > 10_000 { seen = seen.filter { $0.value > now } }
            if let until = seen[signature], until > now { return false }
            seen[signature] = expiry
            return true
        }
    }
}
