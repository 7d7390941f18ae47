/// A field's type in the CloudKit Schema Language: a scalar type, perhaps a `LIST<…>` of it,
/// perhaps `ENCRYPTED`.
///
/// Written as Apple writes it: `STRING`, `LIST<INT64>`, `ENCRYPTED BYTES`,
/// `LIST<ENCRYPTED STRING>` (``description``). The parser also reads `ENCRYPTED LIST<STRING>` as
/// the last. ``init(wireType:)`` and ``wireType`` map to and from the CKWS tags of
/// `FieldType` (`LIST<STRING>` ⇔ `STRING_LIST`).
public struct SchemaFieldType: Sendable, Hashable {
    /// The type of a value, or of each element of a list.
    public enum Scalar: String, Sendable, Hashable, CaseIterable {
        case string = "STRING"
        case int64 = "INT64"
        case double = "DOUBLE"
        case timestamp = "TIMESTAMP"
        case bytes = "BYTES"
        case reference = "REFERENCE"
        case asset = "ASSET"
        case location = "LOCATION"

        /// Whether CloudKit encrypts fields of this type on request: every type but `ASSET`
        /// (always encrypted) and `REFERENCE` (kept clear for the server's use).
        public var canBeEncrypted: Bool {
            switch self {
            case .asset, .reference: false
            default: true
            }
        }
    }

    /// The value's type, or the type of each element of a list.
    public var scalar: Scalar
    /// Whether the field holds a list (`LIST<…>`) of ``scalar``.
    public var isList: Bool
    /// Whether the field's values are encrypted (`ENCRYPTED …`).
    public var isEncrypted: Bool

    /// `scalar`, or a list of it, encrypted or not.
    public init(_ scalar: Scalar, isList: Bool = false, isEncrypted: Bool = false) {
        self.scalar = scalar
        self.isList = isList
        self.isEncrypted = isEncrypted
    }

    /// `LIST<scalar>`, encrypted or not.
    public static func list(_ scalar: Scalar, isEncrypted: Bool = false) -> SchemaFieldType {
        SchemaFieldType(scalar, isList: true, isEncrypted: isEncrypted)
    }

    /// Whether a field of this type may have indexes: CloudKit does not index encrypted fields.
    public var canBeIndexed: Bool { !isEncrypted }

    /// Whether a field of this type may be `SEARCHABLE`: `STRING` and `LIST<STRING>` only.
    public var canBeSearchable: Bool { scalar == .string && !isEncrypted }
}

extension SchemaFieldType: CustomStringConvertible {
    /// The type as a schema file writes it: `STRING`, `LIST<ENCRYPTED STRING>`, `ENCRYPTED BYTES`.
    public var description: String {
        let element = isEncrypted ? "ENCRYPTED " + scalar.rawValue : scalar.rawValue
        return isList ? "LIST<" + element + ">" : element
    }
}
