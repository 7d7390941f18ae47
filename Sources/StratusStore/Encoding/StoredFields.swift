import Foundation
import StratusModel

/// A record's fields as both stores keep them: one JSON object, written by ``JSONWriter`` (the
/// JSON `JSONEncoder` wrote before it, `\/` and all) and read by ``JSONReader`` where it can, by
/// `JSONDecoder` where it cannot (assets, locations). Every stored record read passes here.
package enum StoredFields {
    package static func encode(_ fields: [String: Field]) throws -> String {
        fields.isEmpty ? "{}" : String(decoding: try fields.jsonBytes(escapesSlashes: true, extensions: .exactDates), as: UTF8.self)
    }

    package static func decode(_ json: String) throws -> [String: Field] {
        var json = json
        if let fields = json.withUTF8({ JSONReader.read([String: Field].self, from: UnsafeRawBufferPointer($0)) }) { return fields }
        return try JSONDecoder().decode([String: Field].self, from: Data(json.utf8))
    }
}
