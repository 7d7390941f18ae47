import Foundation
import StratusModel

/// Record fields as the console shows and edits them: a readable value, the text an edit box
/// starts with (JSON for anything but a string), and back from a typed form entry to a `Field`
/// through the model's own JSON decoding, so the console accepts exactly what the API accepts.
enum FieldText {
    /// Types the console offers for a new field (assets are uploaded through the API).
    static let editableTypes: [FieldType] = [
        .string, .int64, .double, .timestamp, .reference, .location, .bytes, .stringList, .int64List, .doubleList, .timestampList,
    ]

    /// The value in words: text as is, times as dates, references by name, assets by checksum.
    static func display(_ field: Field) -> String {
        switch field.value {
        case .string(let text): text
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .timestamp(let milliseconds): date(milliseconds) + " (\(milliseconds))"
        case .reference(let reference): "→ \(reference.recordName)"
        case .asset(let asset): "asset \(asset.fileChecksum?.prefix(12) ?? "?")… (\(asset.size ?? 0) bytes)"
        case .bytes(let data): "\(data.count) bytes"
        default: editText(field)
        }
    }

    /// What an edit box for this field starts with.
    static func editText(_ field: Field) -> String {
        if case .string(let text) = field.value { return text }
        guard let data = try? JSONEncoder().encode(field),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let value = object["value"],
            let text = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes])
        else { return "" }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether the console can edit the field in a text box (assets and encrypted bytes it cannot).
    static func isEditable(_ field: Field) -> Bool {
        !field.type.isAsset && field.type != .encryptedBytes && field.type != .assetIDList
    }

    /// A field from a form: `text` read as `type` the way a CKWS request's `{"value", "type"}` is.
    /// - Throws: a readable refusal naming the field.
    static func field(named name: String, type typeName: String, text: String) throws(ConsoleFailure) -> Field {
        guard let type = FieldType(rawValue: typeName) else { throw ConsoleFailure("Field \(name): unknown type \(typeName).") }
        if type == .string { return .string(text) }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // A bare word is a string in JSON terms (a reference's record name, base64 bytes).
        let literal = (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: .fragmentsAllowed)) != nil
        let valueJSON: String
        if type == .reference, !literal, let name = try? JSONEncoder().encode(trimmed) {
            // A reference typed as the record's name: in this zone, no delete action.
            valueJSON = "{\"recordName\":\(String(decoding: name, as: UTF8.self))}"
        } else if literal {
            valueJSON = trimmed
        } else if let encoded = try? JSONEncoder().encode(trimmed) {
            valueJSON = String(decoding: encoded, as: UTF8.self)
        } else {
            valueJSON = "\"\""
        }
        let json = "{\"type\":\"\(type.rawValue)\",\"value\":\(valueJSON)}"
        let field: Field
        do {
            field = try JSONDecoder().decode(Field.self, from: Data(json.utf8))
        } catch {
            throw ConsoleFailure("Field \(name): '\(trimmed)' is not a valid \(type.rawValue) value.")
        }
        return field
    }

    /// Milliseconds since 1970 as an ISO 8601 date and time (UTC).
    static func date(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).ISO8601Format()
    }
}
