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
