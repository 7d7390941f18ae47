import StratusModel

/// Reads the CloudKit Schema Language (`.ckdb` files, as `xcrun cktool export-schema` writes
/// them) into a ``SchemaDocument``.
///
/// ```
/// DEFINE SCHEMA
///     [CREATE ROLE rolename;]...
///     RECORD TYPE typename (
///         fieldname fieldtype [QUERYABLE | SORTABLE | SEARCHABLE]...,
///         GRANT {READ | CREATE | WRITE}[, ...] TO "rolename",
///         ...
///     );
/// ```
///
/// Keywords in any case; names bare (`title`, `cloudkit.share`) or double-quoted (`"___recordID"`,
/// `"_world"`); `//` and `--` comments anywhere; a comma after the last item of a record type is
/// allowed. Field types: `STRING`, `INT64`, `DOUBLE`, `TIMESTAMP`, `BYTES`, `REFERENCE`, `ASSET`,
/// `LOCATION`, `LIST<…>` of one of them, and `ENCRYPTED` before any but `ASSET` and `REFERENCE`
/// (inside or outside the `LIST<…>`).
///
/// Besides the grammar the parser refuses what CloudKit would: a record type defined twice, a
/// field twice in one type, a role created twice, a `GRANT` to a role that is neither built in
/// (``SchemaRole``) nor created, a list of lists, `SEARCHABLE` on a type that is not `STRING`
/// or `LIST<STRING>`, an index on an encrypted field. Field and type names are not checked
/// against CloudKit's name rules here.
public enum SchemaParser {
    /// The document `text` describes.
    /// - Throws: ``SchemaParseError`` at the first thing wrong, with its line and column.
    public static func parse(_ text: String) throws(SchemaParseError) -> SchemaDocument {
        let tokens = try SchemaLexer.tokens(in: text)
        var parser = SchemaParserState(tokens: tokens)
        return try parser.parseDocument()
    }
}

/// The recursive descent over a file's tokens, and what it has read so far.
private struct SchemaParserState {
    let tokens: [SchemaToken]
    var position = 0
    var result = SchemaDocument()
    /// Each created role and record type, with the line it was defined on.
    var roleLines: [String: Int] = [:]
    var typeLines: [String: Int] = [:]
    /// Every role a GRANT names, checked at the end (a role may be created after its first use).
    var grantedRoles: [(role: String, token: SchemaToken)] = []

    init(tokens: [SchemaToken]) {
        self.tokens = tokens
    }

    // MARK: - Statements

    mutating func parseDocument() throws(SchemaParseError) -> SchemaDocument {
        guard isKeyword("DEFINE") else { throw expected("DEFINE SCHEMA at the start of the file") }
        advance()
        try expectKeyword("SCHEMA", "SCHEMA after DEFINE")
        while true {
            if isKeyword("CREATE") {
                try parseCreateRole()
            } else if isKeyword("RECORD") {
                try parseRecordType()
            } else if current.kind == .end {
                break
            } else {
                throw expected("RECORD TYPE, CREATE ROLE or the end of the file")
            }
        }
        for (role, token) in grantedRoles where !SchemaRole.builtIn.contains(role) && roleLines[role] == nil {
            throw SchemaParseError(
                at: token, "GRANT to unknown role '\(role)': roles are \"_world\", \"_icloud\", \"_creator\" and those made with CREATE ROLE"
            )
        }
        return result
    }

    mutating func parseCreateRole() throws(SchemaParseError) {
        advance()
        try expectKeyword("ROLE", "ROLE after CREATE")
        let (role, token) = try parseName("a role name")
        if SchemaRole.builtIn.contains(role) {
            throw SchemaParseError(at: token, "'\(role)' is a built-in role; CREATE ROLE makes new ones")
        }
        if let line = roleLines[role] {
            throw SchemaParseError(at: token, "role '\(role)' is already created on line \(line)")
        }
        roleLines[role] = token.line
        result.roles.append(role)
        try expectSymbol(";", "';' after CREATE ROLE \(role)")
    }

    mutating func parseRecordType() throws(SchemaParseError) {
        let opening = current
        advance()
        try expectKeyword("TYPE", "TYPE after RECORD")
        let (name, nameToken) = try parseName("a record type name")
        if let line = typeLines[name] {
            throw SchemaParseError(at: nameToken, "record type '\(name)' is already defined on line \(line)")
        }
        typeLines[name] = nameToken.line
        try expectSymbol("(", "'(' after RECORD TYPE \(name)")
        let unclosed = "')' to close RECORD TYPE \(name) (line \(opening.line))"
        var recordType = SchemaRecordType(name: name)
        var fieldLines: [String: Int] = [:]
        while !isSymbol(")") {
            if startsStatement { throw expected(unclosed) }
            let follows: String
            if isKeyword("GRANT") {
                let grant = try parseGrant()
                recordType.grants.append(grant)
                follows = "',' or \(unclosed)"
            } else {
                let (field, token) = try parseField()
                if let line = fieldLines[field.name] {
                    throw SchemaParseError(at: token, "record type '\(name)' already has a field '\(field.name)' (line \(line))")
                }
                fieldLines[field.name] = token.line
                recordType.fields.append(field)
                follows = "an index option (QUERYABLE, SORTABLE, SEARCHABLE), ',' or \(unclosed)"
            }
            if isSymbol(",") {
                advance()
            } else if !isSymbol(")") {
                throw expected(startsStatement ? unclosed : follows)
            }
        }
        advance()
        try expectSymbol(";", "';' after the ')' that closes RECORD TYPE \(name)")
        result.recordTypes.append(recordType)
    }

    // MARK: - Fields and grants

    mutating func parseField() throws(SchemaParseError) -> (SchemaFieldDefinition, SchemaToken) {
        let (name, token) = try parseName("a field name or GRANT")
        let type = try parseFieldType()
        var field = SchemaFieldDefinition(name: name, type: type)
        while let keyword = current.keyword, let option = IndexKind(rawValue: keyword) {
            guard type.canBeIndexed else {
                throw SchemaParseError(at: current, "field '\(name)' is \(type): CloudKit does not index encrypted fields")
            }
            switch option {
            case .queryable:
                field.isQueryable = true
            case .sortable:
                field.isSortable = true
            case .searchable:
                guard type.canBeSearchable else {
                    throw SchemaParseError(at: current, "SEARCHABLE applies to STRING and LIST<STRING> fields; '\(name)' is \(type)")
                }
                field.isSearchable = true
            }
            advance()
        }
        return (field, token)
    }

    mutating func parseFieldType() throws(SchemaParseError) -> SchemaFieldType {
        let start = current
        var encrypted = false
        if isKeyword("ENCRYPTED") {
            encrypted = true
            advance()
        }
        let type: SchemaFieldType
        if isKeyword("LIST") {
            advance()
            try expectSymbol("<", "'<' after LIST")
            if isKeyword("ENCRYPTED") {
                encrypted = true
                advance()
            }
            if isKeyword("LIST") {
                throw SchemaParseError(at: current, "a LIST cannot hold a LIST")
            }
            let scalar = try parseScalar()
            try expectSymbol(">", "'>' to close LIST<\(scalar.rawValue)")
            type = SchemaFieldType(scalar, isList: true, isEncrypted: encrypted)
        } else {
            let scalar = try parseScalar()
            type = SchemaFieldType(scalar, isEncrypted: encrypted)
        }
        if type.isEncrypted && !type.scalar.canBeEncrypted {
            throw SchemaParseError(at: start, "\(type.scalar.rawValue) fields cannot be ENCRYPTED")
        }
        return type
    }

    mutating func parseScalar() throws(SchemaParseError) -> SchemaFieldType.Scalar {
        guard let keyword = current.keyword, let scalar = SchemaFieldType.Scalar(rawValue: keyword) else {
            throw expected("a field type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION or LIST<…>)")
        }
        advance()
        return scalar
    }

    mutating func parseGrant() throws(SchemaParseError) -> SchemaGrant {
        advance()
        var permissions: Set<SchemaPermission> = []
        while true {
            guard let keyword = current.keyword, let permission = SchemaPermission(rawValue: keyword) else {
                throw expected("a permission (READ, CREATE or WRITE)")
            }
            permissions.insert(permission)
            advance()
            guard isSymbol(",") else { break }
            advance()
        }
        guard isKeyword("TO") else { throw expected("',' or TO after GRANT's permissions") }
        advance()
        let (role, token) = try parseName("a role name (\"_world\", \"_icloud\", \"_creator\" or one made with CREATE ROLE)")
        grantedRoles.append((role: role, token: token))
        return SchemaGrant(permissions, to: role)
    }

    // MARK: - Tokens

    var current: SchemaToken { tokens[position] }

    /// Moves to the next token; the end token is never passed.
    mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    func isKeyword(_ keyword: String, ahead offset: Int = 0) -> Bool {
        tokens[min(position + offset, tokens.count - 1)].keyword == keyword
    }

    func isSymbol(_ symbol: Character) -> Bool {
        current.kind == .symbol(symbol)
    }

    /// Whether the current token opens a statement: a record type left open runs into the next.
    var startsStatement: Bool {
        current.kind == .end || (isKeyword("RECORD") && isKeyword("TYPE", ahead: 1))
            || (isKeyword("CREATE") && isKeyword("ROLE", ahead: 1))
    }

    /// A bare or quoted name (a quoted one may not be empty).
    mutating func parseName(_ what: String) throws(SchemaParseError) -> (String, SchemaToken) {
        let token = current
        switch token.kind {
        case .word(let word):
            advance()
            return (word, token)
        case .quoted(let text):
            guard !text.isEmpty else { throw SchemaParseError(at: token, "expected \(what), found an empty name") }
            advance()
            return (text, token)
        case .symbol, .end:
            throw expected(what)
        }
    }

    mutating func expectKeyword(_ keyword: String, _ what: String) throws(SchemaParseError) {
        guard isKeyword(keyword) else { throw expected(what) }
        advance()
    }

    mutating func expectSymbol(_ symbol: Character, _ what: String) throws(SchemaParseError) {
        guard isSymbol(symbol) else { throw expected(what) }
        advance()
    }

    /// `expected …, found …` at the current token.
    func expected(_ what: String) -> SchemaParseError {
        SchemaParseError(at: current, "expected \(what), found \(current.shown)")
    }
}

extension SchemaParseError {
    init(at token: SchemaToken, _ message: String) {
        self.init(line: token.line, column: token.column, message: message)
    }
}
