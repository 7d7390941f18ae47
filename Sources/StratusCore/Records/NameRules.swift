import StratusModel

/// CloudKit's rules for the names clients choose: record names, zone names, record types, fields.
enum NameRules {
    /// Record and zone names: 1–255 bytes of UTF-8 with no control characters.
    static func isValidRecordName(_ name: String) -> Bool {
        let bytes = name.utf8.count
        return bytes > 0 && bytes <= 255 && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
            && !name.allSatisfy(\.isWhitespace)
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
        let scalars = name.unicodeScalars
        guard let first = scalars.first, scalars.count <= 255, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return scalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == ".")
        }
    }
}
