import StratusModel

/// CloudKit's rules for the names clients choose: record names, zone names, record types, fields.
enum NameRules {
    /// Record and zone names: 1–255 bytes of UTF-8 with no control characters.
    static func isValidRecordName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard (1...255).contains(utf8.count) else { return false }
        // ASCII names (nearly all) by their bytes: controls are 0x00–0x1F and 0x7F, and a
        // name of spaces alone is refused; Unicode's properties are for the rest.
        if utf8.allSatisfy({ $0 < 0x80 }) {
            return !utf8.contains { $0 < 0x20 || $0 == 0x7F } && utf8.contains { $0 != UInt8(ascii: " ") }
        }
        return !name.unicodeScalars.contains { $0.properties.generalCategory == .control } && !name.allSatisfy(\.isWhitespace)
    }

    /// Zone names follow record-name rules; a leading underscore is reserved for the system.
    static func isValidZoneName(_ name: String) -> Bool {
        isValidRecordName(name) && !name.hasPrefix("_")
    }

    /// Container identifiers (`iCloud.com.example.App`): 1–255 ASCII letters, digits, `.`, `-`, `_`.
    static func isValidContainerIdentifier(_ identifier: String) -> Bool {
        let scalars = identifier.unicodeScalars
        return (1...255).contains(scalars.count) && scalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
    }

    /// Account emails: printable ASCII (no spaces) with an `@`, at most 254 characters.
    static func isValidEmail(_ email: String) -> Bool {
        let scalars = email.unicodeScalars
        return scalars.count <= 254 && email.contains("@") && scalars.allSatisfy { (0x21...0x7E).contains($0.value) }
    }

    /// Record types CloudKit keeps for its own records (`cloudkit.share` is only ever a share).
    static func isReservedRecordType(_ recordType: String) -> Bool {
        recordType.lowercased().hasPrefix("cloudkit.")
    }

    /// Record types and field names: an ASCII letter, then letters, digits, `_` or `.`, at most 255.
    static func isValidIdentifier(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, utf8.count <= 255, isASCIILetter(first) else { return false }
        return utf8.allSatisfy { byte in
            isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
