import Foundation
import StratusModel

/// The fields of a form: a URL's query or an `application/x-www-form-urlencoded` body, read by
/// ``URLEncodedFields`` (a malformed pair is skipped).
struct FormFields: Sendable {
    private var values: [String: String] = [:]

    init(_ encoded: String?) {
        guard let encoded else { return }
        values = URLEncodedFields.parse(encoded[...])
    }

    /// The field's value, trimmed; `nil` when missing or empty.
    subscript(_ name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// The field's value as sent (a text area keeps its spaces).
    func raw(_ name: String) -> String? { values[name] }

    /// What the user typed: every field but the form's bookkeeping (its token, where to go back).
    var typed: [String: String] { values.filter { $0.key != "formToken" && $0.key != "back" } }

    /// The field's value, or a readable refusal naming the field's label.
    func required(_ name: String, label: String) throws(ConsoleFailure) -> String {
        guard let value = self[name] else { throw ConsoleFailure("Fill in \(label).") }
        return value
    }

    /// Every field name the form sent.
    var names: [String] { values.keys.sorted() }

    /// Whether a checkbox was ticked.
    func isOn(_ name: String) -> Bool { values[name] != nil && values[name] != "off" }
}

/// Form fields for building links: percent-encodes one query component.
enum QueryText {
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// `a=b&c=d` from pairs, skipping `nil` values.
    static func join(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { key, value in value.map { "\(key)=\(encode($0))" } }.joined(separator: "&")
    }

    private static let allowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()
}
