@testable import StratusCore
import Testing

/// The byte-level ASCII paths of `NameRules` decide as Unicode's properties do.
@Suite("NameRules")
struct NameRulesTests {
    /// The rules as written with Unicode properties alone, before the ASCII paths.
    private func recordNameByProperties(_ name: String) -> Bool {
        let bytes = name.utf8.count
        return bytes > 0 && bytes <= 255 && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
            && !name.allSatisfy(\.isWhitespace)
    }

    private func identifierByProperties(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        guard let first = scalars.first, scalars.count <= 255, first.isASCII, first.properties.isAlphabetic else { return false }
        return scalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ".") }
    }

    @Test("record names and identifiers: every ASCII byte, alone and inside a name, and non-ASCII names")
    func sameDecisions() {
        var names = ["", " ", "   ", "a", "a b", "Destination-1", String(repeating: "x", count: 255), String(repeating: "x", count: 256),
                     "é", "\u{85}", "\u{a0}", "名前", " \u{2003}", "a\u{2028}", "9lives", "_x", "a.b_c9"]
        for byte in 0..<0x80 {
            let text = String(UnicodeScalar(UInt8(byte)))
            names += [text, "a" + text + "b", text + text]
        }
        for name in names {
            #expect(NameRules.isValidRecordName(name) == recordNameByProperties(name), "\(name.debugDescription)")
            #expect(NameRules.isValidIdentifier(name) == identifierByProperties(name), "\(name.debugDescription)")
        }
    }
}
