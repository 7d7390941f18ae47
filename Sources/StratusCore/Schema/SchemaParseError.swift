/// Why a schema file was refused: where (1-based line and column, in characters) and what was
/// expected there, e.g. `line 12, column 25: expected a field type (STRING, INT64, …), found
/// 'INTEGER64'`. Semantic refusals (a duplicate field, a GRANT to an unknown role) point at the
/// name at fault.
public struct SchemaParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, counted in characters.
    public var column: Int
    /// What went wrong, without the position.
    public var message: String

    /// An error at `line` and `column` saying `message`.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
