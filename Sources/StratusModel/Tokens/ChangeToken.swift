import Foundation

/// The content of an opaque change token (`syncToken`, `metaSyncToken`).
///
/// Clients never parse tokens; the server encodes a small versioned binary struct as base64 so
/// it can tell a zone's token from a database's, and a token of a deleted-and-recreated zone
/// (another `zoneGeneration`) from a current one.
public struct ChangeToken: Sendable, Hashable {
    /// What a token counts changes of.
    public enum Kind: UInt8, Sendable {
        /// A zone's record changes; `zoneGeneration` names the zone's incarnation.
        case zone = 1
        /// A database's zone changes.
        case database = 2
    }

    static let version: UInt8 = 1

    public var kind: Kind
    /// The store's identity of the zone incarnation (zone tokens). Database tokens keep
    /// ``deletionsAfter`` here.
    public var zoneGeneration: Int64
    /// The global change sequence value the holder has seen everything up to.
    public var sequence: Int64

    public init(kind: Kind, zoneGeneration: Int64 = 0, sequence: Int64) {
        self.kind = kind
        self.zoneGeneration = zoneGeneration
        self.sequence = sequence
    }

    /// A database token through `sequence`. `deletionsAfter` is where a fetch without a token
    /// started (it lists no deleted zone, and neither do the pages that continue it): kept only
    /// while it is ahead of `sequence` — past it, it says nothing more (0, as every earlier token).
    public init(database sequence: Int64, deletionsAfter: Int64) {
        self.init(kind: .database, zoneGeneration: deletionsAfter > sequence ? deletionsAfter : 0, sequence: sequence)
    }

    /// A database token's floor for deleted zones: those that went at or before it are not
    /// listed (0: every deletion after ``sequence``).
    public var deletionsAfter: Int64 { kind == .database ? max(zoneGeneration, 0) : 0 }

    /// The opaque wire form.
    public var encoded: String {
        var bytes: [UInt8] = [ChangeToken.version, kind.rawValue]
        bytes.reserveCapacity(18)
        withUnsafeBytes(of: zoneGeneration.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: sequence.bigEndian) { bytes.append(contentsOf: $0) }
        return Data(bytes).base64EncodedString()
    }

    /// Reads a wire token; `nil` when it is not one of ours.
    public init?(encoded: String) {
        guard let data = Data(base64Encoded: encoded), data.count == 18,
            data[data.startIndex] == ChangeToken.version,
            let kind = Kind(rawValue: data[data.startIndex + 1])
        else { return nil }
        func int64(at offset: Int) -> Int64 {
            var value: Int64 = 0
            for byte in data[(data.startIndex + offset)..<(data.startIndex + offset + 8)] {
                value = (value << 8) | Int64(byte)
            }
            return value
        }
        self.kind = kind
        self.zoneGeneration = int64(at: 2)
        self.sequence = int64(at: 10)
        guard sequence >= 0 else { return nil }
    }
}
