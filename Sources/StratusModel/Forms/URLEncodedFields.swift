import Foundation

/// The fields of an `application/x-www-form-urlencoded` body or a URL's query, as browsers send
/// them: `name=value` pairs joined by `&`, `+` for a space, percent escapes. A pair whose name or
/// value is not valid percent-encoding is skipped (never a crash: the text comes from anyone); a
/// repeated name keeps its first value.
public enum URLEncodedFields {
    public static func parse(_ text: Substring) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), !name.isEmpty, fields[name] == nil else { continue }
            guard let value = parts.count > 1 ? decode(parts[1]) : "" else { continue }
            fields[name] = value
        }
        return fields
    }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
