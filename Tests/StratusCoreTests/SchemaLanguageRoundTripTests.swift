import StratusCore
import StratusModel
import Testing

/// The writer in Apple's export layout, pinned by golden text, and the law that ties it to the
/// parser: `parse(write(document)) == document`, so `write(parse(write(document))) == write(document)`.
@Suite("Schema language: the writer and the round trip")
struct SchemaLanguageRoundTripTests {
    /// A small document that uses every part of the layout.
    static let small = SchemaDocument(
        roles: ["Moderators"],
        recordTypes: [
            SchemaRecordType(
                name: "Trip",
                fields: [
                    SchemaFieldDefinition(name: "___createTime", type: SchemaFieldType(.timestamp), isSortable: true),
                    SchemaFieldDefinition(name: "___recordID", type: SchemaFieldType(.reference), isQueryable: true),
                    SchemaFieldDefinition(name: "title", type: SchemaFieldType(.string), isQueryable: true, isSortable: true, isSearchable: true),
                    SchemaFieldDefinition(name: "tags", type: .list(.string), isQueryable: true),
                    SchemaFieldDefinition(name: "secret", type: SchemaFieldType(.bytes, isEncrypted: true)),
                    SchemaFieldDefinition(name: "notes", type: .list(.string, isEncrypted: true)),
                ],
                grants: [
                    SchemaGrant([.write], to: SchemaRole.creator), SchemaGrant([.write, .read, .create], to: "Moderators"),
                    SchemaGrant([.read], to: SchemaRole.world),
                ]
            ),
            SchemaRecordType(
                name: "cloudkit.share", fields: [SchemaFieldDefinition(name: "___recordID", type: SchemaFieldType(.reference), isQueryable: true)]
            ),
            SchemaRecordType(name: "Empty"),
        ]
    )

    @Test("the exact text of a small export")
    func golden() {
        let expected = [
            "DEFINE SCHEMA",
            "",
            "    CREATE ROLE Moderators;",
            "",
            "    RECORD TYPE Trip (",
            "        \"___createTime\" TIMESTAMP SORTABLE,",
            "        \"___recordID\"   REFERENCE QUERYABLE,",
            "        title           STRING QUERYABLE SEARCHABLE SORTABLE,",
            "        tags            LIST<STRING> QUERYABLE,",
            "        secret          ENCRYPTED BYTES,",
            "        notes           LIST<ENCRYPTED STRING>,",
            "        GRANT WRITE TO \"_creator\",",
            "        GRANT READ, CREATE, WRITE TO \"Moderators\",",
            "        GRANT READ TO \"_world\"",
            "    );",
            "",
            "    RECORD TYPE \"cloudkit.share\" (",
            "        \"___recordID\" REFERENCE QUERYABLE",
            "    );",
            "",
            "    RECORD TYPE Empty (",
            "    );",
            "",
            "",
        ].joined(separator: "\n")
        #expect(SchemaWriter.write(Self.small) == expected)
        #expect(SchemaWriter.write(SchemaDocument()) == "DEFINE SCHEMA\n\n")
    }

    /// A file in the layout of Apple's exports (fields in byte order of their names, so `CD_`
    /// fields come before the system fields and lower-case names after them).
    static let appleShaped = [
        "DEFINE SCHEMA",
        "",
        "    RECORD TYPE CD_Trip (",
        "        CD_entityName   STRING QUERYABLE SEARCHABLE SORTABLE,",
        "        CD_nights       INT64 QUERYABLE SORTABLE,",
        "        \"___createTime\" TIMESTAMP,",
        "        \"___createdBy\"  REFERENCE,",
        "        \"___etag\"       STRING,",
        "        \"___modTime\"    TIMESTAMP,",
        "        \"___modifiedBy\" REFERENCE,",
        "        \"___recordID\"   REFERENCE QUERYABLE,",
        "        GRANT WRITE TO \"_creator\",",
        "        GRANT CREATE TO \"_icloud\",",
        "        GRANT READ TO \"_world\"",
        "    );",
        "",
        "    RECORD TYPE Users (",
        "        \"___createTime\" TIMESTAMP,",
        "        \"___createdBy\"  REFERENCE,",
        "        \"___etag\"       STRING,",
        "        \"___modTime\"    TIMESTAMP,",
        "        \"___modifiedBy\" REFERENCE,",
        "        \"___recordID\"   REFERENCE,",
        "        roles           LIST<INT64>,",
        "        GRANT WRITE TO \"_creator\",",
        "        GRANT READ TO \"_world\"",
        "    );",
        "",
        "",
    ].joined(separator: "\n")

    @Test("a file in Apple's layout is written back byte for byte")
    func appleLayout() throws {
        #expect(SchemaWriter.write(try SchemaParser.parse(Self.appleShaped)) == Self.appleShaped)
    }

    /// Documents the law is checked on: the small one, odd names, every type with every index it
    /// may have, and the parsed acceptance file.
    static func documents() throws -> [SchemaDocument] {
        let oddNames = SchemaDocument(
            roles: ["Night Owls", #"quote " and back\slash"#, "to", "_private"],
            recordTypes: [
                SchemaRecordType(
                    name: "grant",
                    fields: [
                        SchemaFieldDefinition(name: "GRANT", type: SchemaFieldType(.string)),
                        SchemaFieldDefinition(name: "Grant", type: SchemaFieldType(.int64)),
                        SchemaFieldDefinition(name: "record", type: SchemaFieldType(.string)),
                        SchemaFieldDefinition(name: "create", type: SchemaFieldType(.string)),
                        SchemaFieldDefinition(name: "STRING", type: SchemaFieldType(.string)),
                        SchemaFieldDefinition(name: "x9_y", type: SchemaFieldType(.double)),
                        SchemaFieldDefinition(name: "9lives", type: SchemaFieldType(.double)),
                        SchemaFieldDefinition(name: "with space", type: SchemaFieldType(.location)),
                        SchemaFieldDefinition(name: "dotted.name", type: SchemaFieldType(.asset)),
                        SchemaFieldDefinition(name: "ünïcode", type: SchemaFieldType(.bytes)),
                        SchemaFieldDefinition(name: #"a"b\c"#, type: SchemaFieldType(.timestamp)),
                    ],
                    grants: [
                        SchemaGrant([.read], to: "Night Owls"), SchemaGrant([.create, .write], to: #"quote " and back\slash"#),
                        SchemaGrant([.read, .create, .write], to: "to"), SchemaGrant([.read], to: "_private"),
                        SchemaGrant([.read], to: SchemaRole.world), SchemaGrant([.write], to: SchemaRole.world),
                    ]
                ),
                SchemaRecordType(name: "DEFINE"),
                SchemaRecordType(name: "Users", grants: SchemaGrant.defaults(forRecordType: "Users")),
            ]
        )
        var fields: [SchemaFieldDefinition] = []
        for scalar in SchemaFieldType.Scalar.allCases {
            for isList in [false, true] {
                for isEncrypted in [false, true] where !isEncrypted || scalar.canBeEncrypted {
                    let type = SchemaFieldType(scalar, isList: isList, isEncrypted: isEncrypted)
                    for mask in 0..<8 {
                        let field = SchemaFieldDefinition(
                            name: "f\(fields.count)", type: type, isQueryable: mask & 1 != 0, isSortable: mask & 2 != 0, isSearchable: mask & 4 != 0
                        )
                        if field.indexes.isEmpty || (type.canBeIndexed && (!field.isSearchable || type.canBeSearchable)) {
                            fields.append(field)
                        }
                    }
                }
            }
        }
        let everyType = SchemaDocument(recordTypes: [SchemaRecordType(name: "Everything", fields: fields, grants: SchemaGrant.defaults(forRecordType: "X"))])
        return [SchemaDocument(), small, oddNames, everyType, try SchemaParser.parse(SchemaLanguageParserTests.tripSchema)]
    }

    @Test("parse(write(document)) == document, and writing again changes nothing")
    func law() throws {
        for document in try Self.documents() {
            let text = SchemaWriter.write(document)
            let parsed = try SchemaParser.parse(text)
            #expect(parsed == document, "\(text)")
            #expect(SchemaWriter.write(parsed) == text)
        }
    }

    /// A hand-made file of 200 record types, not in the writer's layout: one line per type or one
    /// per field, keywords in mixed case, comments, trailing commas.
    static func generatedFile(types: Int) -> String {
        let typeTexts = ["STRING", "int64", "DOUBLE", "Timestamp", "BYTES", "REFERENCE", "ASSET", "LOCATION", "LIST<STRING>", "list<INT64>", "ENCRYPTED STRING", "LIST<ENCRYPTED BYTES>"]
        var text = "// generated\ndefine SCHEMA\n    CREATE ROLE Role0;\n    create role \"Role1\";\n    CREATE ROLE Role2;\n"
        for index in 0..<types {
            var items = ["\"___recordID\" REFERENCE QUERYABLE"]
            for field in 0..<(index % 7 + 1) {
                let type = typeTexts[(index + field) % typeTexts.count]
                let options: String
                if type.hasPrefix("ENCRYPTED") || type.hasPrefix("LIST<ENCRYPTED") {
                    options = ""
                } else if type.uppercased() == "STRING" || type.uppercased() == "LIST<STRING>" {
                    options = " QUERYABLE SEARCHABLE SORTABLE"
                } else {
                    options = (index + field) % 2 == 0 ? " sortable queryable" : ""
                }
                items.append("field\(field) \(type)\(options)")
            }
            items.append("GRANT READ TO \"_world\"")
            if index % 3 == 0 {
                items.append("grant WRITE, create TO \"Role\(index % 9 / 3)\"")
            }
            let separator = index % 2 == 0 ? ", " : ", // item\n        "
            let trailing = index % 5 == 0 ? "," : ""
            text += "    RECORD TYPE Type\(index) (\(items.joined(separator: separator))\(trailing));\n"
        }
        return text
    }

    @Test("a generated file of 200 record types: parsed, counted, and round-tripped")
    func generated() throws {
        let document = try SchemaParser.parse(Self.generatedFile(types: 200))
        #expect(document.roles == ["Role0", "Role1", "Role2"])
        #expect(document.recordTypes.count == 200)
        #expect(document.recordTypes.map(\.name) == (0..<200).map { "Type\($0)" })
        let fieldCount = (0..<200).reduce(0) { $0 + 1 + $1 % 7 + 1 }
        #expect(document.recordTypes.reduce(0) { $0 + $1.fields.count } == fieldCount)
        let grantCount = (0..<200).reduce(0) { $0 + 1 + ($1 % 3 == 0 ? 1 : 0) }
        #expect(document.recordTypes.reduce(0) { $0 + $1.grants.count } == grantCount)
        #expect(document.recordType(named: "Type3")?.permissions(of: "Role1") == [.create, .write])
        #expect(document.recordType(named: "Type0")?.field(named: "field0")?.indexes == [.queryable, .sortable, .searchable])
        #expect(document.recordType(named: "Type1")?.field(named: "field0")?.type == SchemaFieldType(.int64))

        let text = SchemaWriter.write(document)
        let parsed = try SchemaParser.parse(text)
        #expect(parsed == document)
        #expect(SchemaWriter.write(parsed) == text)
    }
}
