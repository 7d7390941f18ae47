import ArgumentParser
import Foundation

/// Checks a command-line value against the values it may take, and for a typo names the closest.
enum Suggestion {
    /// `value` when it is one of `allowed` (case-insensitively: answered as listed), else a
    /// `ValidationError` naming the closest one ("did you mean THROTTLED?") and every choice.
    static func require(_ value: String, among allowed: [String], option: String) throws -> String {
        if let exact = allowed.first(where: { $0.caseInsensitiveCompare(value) == .orderedSame }) { return exact }
        let ranked = allowed.map { ($0, distance(value.uppercased(), $0.uppercased())) }.sorted { $0.1 < $1.1 }
        let guess = ranked.first.flatMap { $0.1 <= max(2, value.count / 3) ? " — did you mean \($0.0)?" : nil } ?? ""
        throw ValidationError("\(option) '\(value)' is not one of \(allowed.joined(separator: ", "))\(guess)")
    }

    /// Levenshtein distance: the edits (insert, delete, replace) that turn `a` into `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
