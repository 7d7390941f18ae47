import StratusCore
import Testing

/// Files the parser refuses: each refusal names the line and column at fault and says what was
/// expected there and what was found.
@Suite("Schema language: refusals")
struct SchemaLanguageErrorTests {
    private func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> SchemaParseError {
        try #require(throws: SchemaParseError.self, sourceLocation: sourceLocation) { try SchemaParser.parse(text) }
    }

    @Test("an unknown field type, on its line and column")
    func unknownType() throws {
        let error = try refusal("""
            DEFINE SCHEMA
                RECORD TYPE Trip (
                    title STRING QUERYABLE,
                    rank  INTEGER64 SORTABLE
                );
            """)
        #expect(error.line == 4)
        #expect(error.column == 15)
        #expect(error.message == "expected a field type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION or LIST<…>), found 'INTEGER64'")
        #expect(error.description.hasPrefix("line 4, column 15: expected a field type"))
    }

    @Test("a record type left open runs into the next one, or into the end of the file")
    func missingParenthesis() throws {
        let afterComma = try refusal("""
            DEFINE SCHEMA
                RECORD TYPE Trip (
                    title STRING,

                RECORD TYPE Board (
                    message STRING
                );
            """)
        #expect(afterComma.line == 5)
        #expect(afterComma.column == 5)
        #expect(afterComma.message == "expected ')' to close RECORD TYPE Trip (line 2), found 'RECORD'")

        let afterField = try refusal("""
            DEFINE SCHEMA
                RECORD TYPE Trip (
                    title STRING
                CREATE ROLE Editors;
            """)
        #expect(afterField.line == 4)
        #expect(afterField.message == "expected ')' to close RECORD TYPE Trip (line 2), found 'CREATE'")

        let atEnd = try refusal("DEFINE SCHEMA\nRECORD TYPE Trip (\n    title STRING QUERYABLE")
        #expect(atEnd.line == 3)
        #expect(atEnd.column == 27)
        #expect(atEnd.message == "expected ')' to close RECORD TYPE Trip (line 2), found the end of the file")
    }

    @Test("a GRANT without TO")
    func missingTo() throws {
        let error = try refusal("""
            DEFINE SCHEMA
                RECORD TYPE Notice (
                    text STRING,
                    GRANT READ, WRITE "_world"
                );
            """)
        #expect(error.line == 4)
        #expect(error.column == 27)
        #expect(error.message == #"expected ',' or TO after GRANT's permissions, found '"_world"'"#)
    }

    @Test("a GRANT to a role neither built in nor created (role names are case-sensitive)")
    func unknownRole() throws {
        let error = try refusal("""
            DEFINE SCHEMA
                CREATE ROLE Editors;
                RECORD TYPE Notice (
                    text STRING,
                    GRANT WRITE TO "Editors",
                    GRANT READ TO "editors"
                );
            """)
        #expect(error.line == 6)
        #expect(error.column == 23)
        #expect(error.message.hasPrefix("GRANT to unknown role 'editors'"))
        // A role may be created after the type that names it.
        let later = try SchemaParser.parse(#"DEFINE SCHEMA RECORD TYPE A (GRANT READ TO "Late"); CREATE ROLE Late;"#)
        #expect(later.roles == ["Late"])
    }

    @Test("a field twice in one record type, quoted or not")
    func duplicateField() throws {
        let error = try refusal("""
            DEFINE SCHEMA
                RECORD TYPE Trip (
                    title STRING,
                    rank INT64,
                    "title" STRING
                );
            """)
        #expect(error.line == 5)
        #expect(error.column == 9)
        #expect(error.message == "record type 'Trip' already has a field 'title' (line 3)")
    }

    @Test("a quoted name left open at the end of its line")
    func unterminatedQuote() throws {
        let error = try refusal("""
            DEFINE SCHEMA
                RECORD TYPE Trip (
                    "___createTime TIMESTAMP,
                    title STRING
                );
            """)
        #expect(error.line == 3)
        #expect(error.column == 9)
        #expect(error.message.hasPrefix("unterminated quoted name"))
    }

    @Test("anything after the last ');' but comments")
    func garbageAfterEnd() throws {
        let error = try refusal("""
            DEFINE SCHEMA
                RECORD TYPE Trip (
                    title STRING
                ); garbage
            """)
        #expect(error.line == 4)
        #expect(error.column == 8)
        #expect(error.message == "expected RECORD TYPE, CREATE ROLE or the end of the file, found 'garbage'")
    }

    @Test("what CloudKit refuses beyond the grammar")
    func semanticRefusals() throws {
        let cases: [(text: String, line: Int, column: Int, message: String)] = [
            ("DEFINE SCHEMA\nRECORD TYPE A (a STRING);\nRECORD TYPE A (b STRING);", 3, 13, "record type 'A' is already defined on line 2"),
            ("DEFINE SCHEMA\nCREATE ROLE R;\nCREATE ROLE \"R\";", 3, 13, "role 'R' is already created on line 2"),
            ("DEFINE SCHEMA\nCREATE ROLE \"_world\";", 2, 13, "'_world' is a built-in role; CREATE ROLE makes new ones"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  l LIST<LIST<STRING>>\n);", 3, 10, "a LIST cannot hold a LIST"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  n INT64 QUERYABLE SEARCHABLE\n);", 3, 21, "SEARCHABLE applies to STRING and LIST<STRING> fields; 'n' is INT64"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  e ENCRYPTED STRING SORTABLE\n);", 3, 22, "field 'e' is ENCRYPTED STRING: CloudKit does not index encrypted fields"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  r ENCRYPTED REFERENCE\n);", 3, 5, "REFERENCE fields cannot be ENCRYPTED"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  a LIST<ENCRYPTED ASSET>\n);", 3, 5, "ASSET fields cannot be ENCRYPTED"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  \"\" STRING\n);", 3, 3, "expected a field name or GRANT, found an empty name"),
        ]
        for (text, line, column, message) in cases {
            let error = try refusal(text)
            #expect(error == SchemaParseError(line: line, column: column, message: message), "\(text)")
        }
    }

    @Test("what the grammar refuses elsewhere")
    func grammarRefusals() throws {
        let cases: [(text: String, line: Int, column: Int, message: String)] = [
            ("", 1, 1, "expected DEFINE SCHEMA at the start of the file, found the end of the file"),
            ("RECORD TYPE A ();", 1, 1, "expected DEFINE SCHEMA at the start of the file, found 'RECORD'"),
            ("DEFINE SCHEMA RECORD TYPE A ()\nRECORD TYPE B ();", 2, 1, "expected ';' after the ')' that closes RECORD TYPE A, found 'RECORD'"),
            ("DEFINE SCHEMA RECORD TYPE A (\n  n INT64 SORTED\n);", 2, 11,
             "expected an index option (QUERYABLE, SORTABLE, SEARCHABLE), ',' or ')' to close RECORD TYPE A (line 1), found 'SORTED'"),
            ("DEFINE SCHEMA RECORD TYPE A (\n  GRANT EDIT TO \"_world\"\n);", 2, 9, "expected a permission (READ, CREATE or WRITE), found 'EDIT'"),
            ("DEFINE SCHEMA RECORD TYPE A (\n  a STRING,, b STRING\n);", 2, 12, "expected a field name or GRANT, found ','"),
            ("DEFINE SCHEMA RECORD TYPE A (\n  l LIST<STRING\n);", 3, 1, "expected '>' to close LIST<STRING, found ')'"),
            ("DEFINE SCHEMA\nCREATE ROLE Editors", 2, 20, "expected ';' after CREATE ROLE Editors, found the end of the file"),
            ("DEFINE SCHEMA\n# a shell comment", 2, 1, "unexpected character '#'"),
        ]
        for (text, line, column, message) in cases {
            let error = try refusal(text)
            #expect(error == SchemaParseError(line: line, column: column, message: message), "\(text)")
        }
    }
}
