/// One token of a schema file, with where it starts.
struct SchemaToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A bare word: a keyword (any case) or an unquoted name.
        case word(String)
        /// A double-quoted name, without its quotes, escapes resolved.
        case quoted(String)
        /// One of `(`, `)`, `,`, `;`, `<`, `>`.
        case symbol(Character)
        /// After the last token.
        case end
    }

    var kind: Kind
    /// From 1.
    var line: Int
    /// From 1, in characters.
    var column: Int

    /// The keyword a bare word spells, upper-cased; `nil` for any other token.
    var keyword: String? {
        guard case .word(let word) = kind else { return nil }
        return word.uppercased()
    }

    /// The token as an error message shows it: `'INTEGER64'`, `'"_world"'`, `'('`.
    var shown: String {
        switch kind {
        case .word(let word): "'\(word)'"
        case .quoted(let text): "'\"\(text)\"'"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the file"
        }
    }
}

/// Splits a schema file into tokens: bare words, double-quoted names, the six symbols, and
/// nothing for white space and comments (`//` or `--` to the end of the line).
///
/// A quoted name ends on its line; inside it `\"` is a quote and `\\` a backslash (Apple's
/// files never need them; the writer uses them for names that hold those characters).
enum SchemaLexer {
    static func tokens(in text: String) throws(SchemaParseError) -> [SchemaToken] {
        let characters = Array(text)
        var tokens: [SchemaToken] = []
        var index = 0
        var line = 1
        var column = 1

        func peek(_ offset: Int) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }

        while index < characters.count {
            let character = characters[index]
            if character.isNewline {
                index += 1
                line += 1
                column = 1
            } else if character.isWhitespace || (index == 0 && character == "\u{FEFF}") {
                index += 1
                column += 1
            } else if (character == "/" && peek(1) == "/") || (character == "-" && peek(1) == "-") {
                // A comment runs to the end of the line (the newline itself is counted above).
                while index < characters.count, !characters[index].isNewline {
                    index += 1
                }
            } else if "(),;<>".contains(character) {
                tokens.append(SchemaToken(kind: .symbol(character), line: line, column: column))
                index += 1
                column += 1
            } else if character == "\"" {
                let start = column
                index += 1
                column += 1
                var name = ""
                var closed = false
                while index < characters.count, !characters[index].isNewline {
                    let inside = characters[index]
                    index += 1
                    column += 1
                    if inside == "\"" {
                        closed = true
                        break
                    }
                    if inside == "\\", let escaped = peek(0), escaped == "\"" || escaped == "\\" {
                        name.append(escaped)
                        index += 1
                        column += 1
                    } else {
                        name.append(inside)
                    }
                }
                guard closed else {
                    throw SchemaParseError(
                        line: line, column: start, message: "unterminated quoted name: a '\"' must close it on the same line"
                    )
                }
                tokens.append(SchemaToken(kind: .quoted(name), line: line, column: start))
            } else if isWordCharacter(character) {
                let start = column
                var word = ""
                while index < characters.count, isWordCharacter(characters[index]) || characters[index] == "." {
                    word.append(characters[index])
                    index += 1
                    column += 1
                }
                tokens.append(SchemaToken(kind: .word(word), line: line, column: start))
            } else {
                throw SchemaParseError(line: line, column: column, message: "unexpected character '\(character)'")
            }
        }
        tokens.append(SchemaToken(kind: .end, line: line, column: column))
        return tokens
    }

    /// ASCII letters, digits and `_` (a `.` may follow inside a word: `cloudkit.share`).
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }
}
