import StratusCore
import StratusModel
import Testing

/// Every sequence of up to three index options, repeats included (40 of them).
private let optionSequences: [[String]] = {
    let options = ["QUERYABLE", "SORTABLE", "SEARCHABLE"]
    var sequences: [[String]] = [[]]
    var previous: [[String]] = [[]]
    for _ in 1...3 {
        previous = previous.flatMap { sequence in options.map { sequence + [$0] } }
        sequences += previous
    }
    return sequences
}()

/// The CloudKit Schema Language read as Apple's exports and hand-written files write it: every
/// construct of the grammar, in any case, with comments anywhere.
@Suite("Schema language: the parser")
struct SchemaLanguageParserTests {
    /// The acceptance check's file: comments, quoted system fields, LIST<…>, GRANTs.
    static let tripSchema = """
        DEFINE SCHEMA

            // A trip: everyone reads, signed-in users create, the creator writes.
            RECORD TYPE Trip (
                "___createTime" TIMESTAMP SORTABLE,
                "___recordID"   REFERENCE QUERYABLE,
                title           STRING QUERYABLE SEARCHABLE SORTABLE,
                rank            INT64 QUERYABLE SORTABLE,
                note            STRING,
                tags            LIST<STRING> QUERYABLE,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Board (
                "___recordID"   REFERENCE QUERYABLE,
                message         STRING,
                GRANT WRITE, CREATE, READ TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Notice (
                "___recordID"   REFERENCE QUERYABLE,
                text            STRING,
                GRANT READ TO "_world"
            );
        """

    @Test("a file like Apple's: types, fields, indexes and grants in the order written")
    func tripSchema() throws {
        let document = try SchemaParser.parse(Self.tripSchema)
        #expect(document.roles.isEmpty)
        #expect(document.recordTypes.map(\.name) == ["Trip", "Board", "Notice"])
        let trip = try #require(document.recordType(named: "Trip"))
        #expect(trip.fields.map(\.name) == ["___createTime", "___recordID", "title", "rank", "note", "tags"])
        #expect(trip.fields[0] == SchemaFieldDefinition(name: "___createTime", type: SchemaFieldType(.timestamp), isSortable: true))
        #expect(trip.fields[1] == SchemaFieldDefinition(name: "___recordID", type: SchemaFieldType(.reference), isQueryable: true))
        #expect(trip.field(named: "title")?.indexes == [.queryable, .sortable, .searchable])
        #expect(trip.field(named: "rank")?.indexes == [.queryable, .sortable])
        #expect(trip.field(named: "note")?.indexes == [])
        #expect(trip.field(named: "tags") == SchemaFieldDefinition(name: "tags", type: .list(.string), isQueryable: true))
        #expect(trip.grants == [SchemaGrant([.write], to: "_creator"), SchemaGrant([.create], to: "_icloud"), SchemaGrant([.read], to: "_world")])
        let board = try #require(document.recordType(named: "Board"))
        #expect(board.grants == [SchemaGrant([.read, .create, .write], to: "_icloud"), SchemaGrant([.read], to: "_world")])
        #expect(board.permissions(of: SchemaRole.icloud) == [.read, .create, .write])
        #expect(board.permissions(of: SchemaRole.world) == [.read])
        #expect(board.permissions(of: SchemaRole.creator) == [])
        #expect(document.recordType(named: "Notice")?.fields.count == 2)
        #expect(document.recordType(named: "notice") == nil)
    }

    @Test("every type, LIST<…> and ENCRYPTED; roles bare and quoted; lower-case keywords; a comma after the last item")
    func everyConstruct() throws {
        let document = try SchemaParser.parse("""
            // A schema that uses every construct.
            define schema  -- lower-case keywords, and a comment of the other kind
                create role Moderators;
                CREATE ROLE "Night Owls"; // a quoted role name

                RECORD TYPE "Users" (
                    "___createTime" TIMESTAMP,
                    "___recordID"   REFERENCE QUERYABLE,
                    roles           LIST<INT64>,
                    GRANT WRITE TO "_creator",
                    GRANT READ TO "_world"
                );

                record type Everything ( // a comment after the parenthesis
                    s STRING, i INT64, d DOUBLE, t TIMESTAMP, b BYTES, r REFERENCE, a ASSET, l LOCATION,
                    ls list<string>, li LIST<INT64>, ld List<Double>, lt LIST<TIMESTAMP>,
                    lb LIST<BYTES>, lr LIST<REFERENCE>, la LIST<ASSET>, ll LIST<LOCATION>,
                    es ENCRYPTED STRING, eb encrypted bytes, ed ENCRYPTED DOUBLE,
                    ei ENCRYPTED INT64, el ENCRYPTED LOCATION, et ENCRYPTED TIMESTAMP,
                    els LIST<ENCRYPTED STRING>, eli ENCRYPTED LIST<INT64>,
                    GRANT read, create, write TO "Night Owls",
                    GRANT WRITE TO Moderators,
                    grant READ to "_world", // a comma after the last item
                );

                RECORD TYPE cloudkit.share (
                    "___recordID" REFERENCE QUERYABLE,
                );
            """)
        #expect(document.roles == ["Moderators", "Night Owls"])
        #expect(document.recordTypes.map(\.name) == ["Users", "Everything", "cloudkit.share"])

        let users = try #require(document.recordType(named: "Users"))
        #expect(users.field(named: "roles")?.type == .list(.int64))
        #expect(users.grants == [SchemaGrant([.write], to: "_creator"), SchemaGrant([.read], to: "_world")])

        let everything = try #require(document.recordType(named: "Everything"))
        let expected: [String: SchemaFieldType] = [
            "s": SchemaFieldType(.string), "i": SchemaFieldType(.int64), "d": SchemaFieldType(.double),
            "t": SchemaFieldType(.timestamp), "b": SchemaFieldType(.bytes), "r": SchemaFieldType(.reference),
            "a": SchemaFieldType(.asset), "l": SchemaFieldType(.location),
            "ls": .list(.string), "li": .list(.int64), "ld": .list(.double), "lt": .list(.timestamp),
            "lb": .list(.bytes), "lr": .list(.reference), "la": .list(.asset), "ll": .list(.location),
            "es": SchemaFieldType(.string, isEncrypted: true), "eb": SchemaFieldType(.bytes, isEncrypted: true),
            "ed": SchemaFieldType(.double, isEncrypted: true), "ei": SchemaFieldType(.int64, isEncrypted: true),
            "el": SchemaFieldType(.location, isEncrypted: true), "et": SchemaFieldType(.timestamp, isEncrypted: true),
            "els": .list(.string, isEncrypted: true), "eli": .list(.int64, isEncrypted: true),
        ]
        #expect(everything.fields.count == expected.count)
        for field in everything.fields {
            #expect(field.type == expected[field.name], "\(field.name)")
            #expect(field.indexes.isEmpty, "\(field.name)")
        }
        #expect(everything.grants == [
            SchemaGrant([.read, .create, .write], to: "Night Owls"), SchemaGrant([.write], to: "Moderators"),
            SchemaGrant([.read], to: "_world"),
        ])
        #expect(document.recordType(named: "cloudkit.share")?.fields.map(\.name) == ["___recordID"])
    }

    @Test("type names are written back upper-case, lists and encryption as Apple writes them")
    func typeText() {
        #expect(SchemaFieldType(.int64).description == "INT64")
        #expect(SchemaFieldType.list(.string).description == "LIST<STRING>")
        #expect(SchemaFieldType(.bytes, isEncrypted: true).description == "ENCRYPTED BYTES")
        #expect(SchemaFieldType.list(.string, isEncrypted: true).description == "LIST<ENCRYPTED STRING>")
    }

    @Test("comments anywhere, of both kinds, and one at the very end without a newline")
    func commentsAnywhere() throws {
        let document = try SchemaParser.parse("""
            // before everything
            DEFINE // between DEFINE and SCHEMA
            SCHEMA -- after SCHEMA
            CREATE // inside CREATE ROLE
            ROLE Editors // before the semicolon
            ; // after it
            RECORD -- between RECORD and TYPE
            TYPE Note // before the parenthesis
            ( // after it
            title // between a field's name and its type
            STRING // between the type and its index
            QUERYABLE // before the comma
            , // after it
            GRANT WRITE // inside a grant
            , READ // and again
            TO // before the role
            "Editors" // after the role
            ) // before the semicolon
            ; // the end
            // really the end
            """)
        #expect(document.roles == ["Editors"])
        let note = try #require(document.recordType(named: "Note"))
        #expect(note.fields == [SchemaFieldDefinition(name: "title", type: SchemaFieldType(.string), isQueryable: true)])
        #expect(note.grants == [SchemaGrant([.read, .write], to: "Editors")])
    }

    @Test("a record type on one line, as in the issue: Users with its system fields")
    func oneLine() throws {
        let document = try SchemaParser.parse(
            #"DEFINE SCHEMA RECORD TYPE Users ("___createTime" TIMESTAMP, "___recordID" REFERENCE, roles LIST<INT64>, GRANT WRITE TO "_creator", GRANT READ TO "_world");"#
        )
        let users = try #require(document.recordType(named: "Users"))
        #expect(users.fields.map(\.name) == ["___createTime", "___recordID", "roles"])
        #expect(users.fields.allSatisfy(\.isSystemField) == false)
        #expect(users.fields.filter(\.isSystemField).count == 2)
        #expect(users.grants.count == 2)
    }

    @Test("empty files of the language: no types, a type with nothing in it, a comma before ')'")
    func emptyShapes() throws {
        #expect(try SchemaParser.parse("DEFINE SCHEMA") == SchemaDocument())
        #expect(try SchemaParser.parse("define schema\n// nothing else\n") == SchemaDocument())
        #expect(try SchemaParser.parse("DEFINE SCHEMA RECORD TYPE A ();") == SchemaDocument(recordTypes: [SchemaRecordType(name: "A")]))
        let trailing = try SchemaParser.parse("DEFINE SCHEMA RECORD TYPE A (a STRING,);")
        #expect(trailing.recordTypes.first?.fields.map(\.name) == ["a"])
    }

    /// Written alternately upper- and lower-case.
    @Test("index options in any order, any combination, any case", arguments: optionSequences)
    func indexOptions(_ options: [String]) throws {
        let written = options.enumerated().map { $0.offset % 2 == 0 ? $0.element : $0.element.lowercased() }.joined(separator: " ")
        let document = try SchemaParser.parse("DEFINE SCHEMA RECORD TYPE T (f STRING \(written), g LIST<STRING> \(written));")
        let recordType = try #require(document.recordTypes.first)
        for field in recordType.fields {
            #expect(field.isQueryable == options.contains("QUERYABLE"))
            #expect(field.isSortable == options.contains("SORTABLE"))
            #expect(field.isSearchable == options.contains("SEARCHABLE"))
        }
    }

    @Test("quoted names keep what bare words cannot hold: spaces, keywords, escaped quotes")
    func quotedNames() throws {
        let document = try SchemaParser.parse(#"""
            DEFINE SCHEMA
                CREATE ROLE "Night \"Owls\"";
                RECORD TYPE "My Type" (
                    "GRANT" STRING,
                    "back\\slash" INT64,
                    GRANT READ TO "Night \"Owls\""
                );
            """#)
        #expect(document.roles == [#"Night "Owls""#])
        let recordType = try #require(document.recordType(named: "My Type"))
        #expect(recordType.fields.map(\.name) == ["GRANT", #"back\slash"#])
        #expect(recordType.grants == [SchemaGrant([.read], to: #"Night "Owls""#)])
    }
}
