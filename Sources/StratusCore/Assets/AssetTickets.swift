import Crypto
import Foundation
import StratusModel

/// Signs and checks the capability strings of assets: upload URLs, receipts and download URLs
/// carry their facts (whose, which bytes, until when) signed with HMAC-SHA256 under the store's
/// key, so checking one costs no read and any instance on the store accepts another's.
struct AssetSigner: Sendable {
    /// The key's bytes (`SymmetricKey` is not `Sendable`; one is made per use).
    let keyBytes: [UInt8]

    init(key: [UInt8]) { self.keyBytes = key }

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// What a signed string is for: the MAC covers it, so one kind never passes for another
    /// (a receipt is not a download URL).
    enum Purpose: String {
        case upload, receipt, download
    }

    /// `base64url(JSON).base64url(MAC)`.
    func sign<Payload: Encodable>(_ payload: Payload, for purpose: Purpose) -> String {
        let body = (try? JSONEncoder().encode(payload)) ?? Data()
        let mac = HMAC<SHA256>.authenticationCode(for: Self.signed(body, purpose), using: key)
        return Self.base64URL(body) + "." + Self.base64URL(Data(mac))
    }

    /// The payload of a string this signer made for `purpose`; `nil` for anything else.
    func verify<Payload: Decodable>(_ token: String, as: Payload.Type, for purpose: Purpose) -> Payload? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let body = Self.data(base64URL: parts[0]), let mac = Self.data(base64URL: parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Self.signed(body, purpose), using: key)
        else { return nil }
        return try? JSONDecoder().decode(Payload.self, from: body)
    }

    private static func signed(_ body: Data, _ purpose: Purpose) -> Data {
        Data(purpose.rawValue.utf8) + [0] + body
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64URL text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// What an upload URL grants: one upload of an asset for a field, by one account, until `expires`.
struct UploadTicket: Codable, Sendable {
    /// The upload's ID (random): an upload URL serves once.
    var id: String
    var owner: String
    var container: String
    var environment: ContainerEnvironment
    var recordType: String
    var fieldName: String
    /// Milliseconds since 1970.
    var expires: Int64
}

/// What a receipt proves: an account uploaded these bytes (or was handed them by rereference).
struct AssetReceipt: Codable, Sendable {
    /// The upload's ID: the store lets it serve one record field.
    var id: String
    var owner: String
    var container: String
    var environment: ContainerEnvironment
    var checksum: String
    var size: Int64
    var expires: Int64
}

/// What a download URL grants: reading one blob until `expires`.
struct DownloadTicket: Codable, Sendable {
    var checksum: String
    var expires: Int64
}
