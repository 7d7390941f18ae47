import StratusCore
import StratusModel
import Testing

/// Schema types to and from CKWS field type tags, and a container's learned schema
/// (`SchemaDescription`) to and from a schema document.
@Suite("Schema language: wire types and the learned schema")
struct SchemaLanguageLearnedTests {
    @Test("every CKWS field type has a schema type, and maps back (ASSETID as ASSET)")
    func wireTypes() {
        for wireType in FieldType.allCases {
            let type = SchemaFieldType(wireType: wireType)
            switch wireType {
            case .assetID: #expect(type.wireType == .asset)
            case .assetIDList: #expect(type.wireType == .assetList)
            default: #expect(type.wireType == wireType, "\(wireType)")
            }
        }
        #expect(SchemaFieldType(wireType: .stringList) == .list(.string))
        #expect(SchemaFieldType(wireType: .encryptedBytes) == SchemaFieldType(.bytes, isEncrypted: true))
        #expect(SchemaFieldType.list(.location).wireType == .locationList)
        #expect(SchemaFieldType(.string, isEncrypted: true).wireType == nil)
        #expect(SchemaFieldType.list(.bytes, isEncrypted: true).wireType == nil)
    }

    @Test("every schema type with a wire tag maps to it and back")
    func schemaTypes() {
        for scalar in SchemaFieldType.Scalar.allCases {
            for isList in [false, true] {
                for isEncrypted in [false, true] {
                    let type = SchemaFieldType(scalar, isList: isList, isEncrypted: isEncrypted)
                    if let wireType = type.wireType {
                        #expect(SchemaFieldType(wireType: wireType) == type, "\(type)")
                    } else {
                        #expect(isEncrypted, "\(type)")
                    }
                }
            }
        }
    }

    /// What `SchemaService.describe` shows for a container that learned `CD_Trip` and `Users`
    /// and indexed some of their fields.
    static let learned = SchemaDescription(
        container: "iCloud.com.example.Trips", environment: .development,
        recordTypes: [
            .init(name: "CD_Trip", fields: [
                .init(name: "CD_entityName", type: .string, indexes: [.queryable, .sortable, .searchable]),
                .init(name: "CD_nights", type: .int64, indexes: [.queryable, .sortable]),
                .init(name: "___recordId", type: nil, indexes: [.queryable]),
            ]),
            .init(name: "Users", fields: [.init(name: "roles", type: .int64List, indexes: [])]),
        ]
    )

    @Test("a learned schema exports as Apple would: sorted, every system field, default grants")
    func learnedExport() throws {
        let document = SchemaDocument(learned: Self.learned)
        #expect(SchemaWriter.write(document) == SchemaLanguageRoundTripTests.appleShaped)
        #expect(try SchemaParser.parse(SchemaWriter.write(document)) == document)
    }

    @Test("learned → document → learned keeps the description")
    func learnedRoundTrip() {
        let document = SchemaDocument(learned: Self.learned)
        #expect(document.learnedDescription(container: Self.learned.container, environment: .development) == Self.learned)
    }

    @Test("what the language cannot say is left out of an export")
    func learnedLeftOut() throws {
        let description = SchemaDescription(
            container: "c", environment: .production,
            recordTypes: [
                .init(name: "b", fields: [
                    .init(name: "untyped", type: nil, indexes: [.queryable]),
                    .init(name: "count", type: .int64, indexes: [.searchable, .sortable]),
                    .init(name: "secret", type: .encryptedBytes, indexes: [.queryable]),
                    .init(name: "file", type: .assetID, indexes: []),
                    .init(name: "___allStrings", type: nil, indexes: [.searchable]),
                    .init(name: "___createTime", type: nil, indexes: [.sortable]),
                ]),
                .init(name: "A", fields: []),
            ]
        )
        let document = SchemaDocument(learned: description, roles: ["Editors"], grants: ["b": [SchemaGrant([.read], to: "Editors")]])
        #expect(document.roles == ["Editors"])
        #expect(document.recordTypes.map(\.name) == ["A", "b"])
        let b = try #require(document.recordType(named: "b"))
        #expect(b.fields.map(\.name) == ["___createTime", "___createdBy", "___etag", "___modTime", "___modifiedBy", "___recordID", "count", "file", "secret"])
        #expect(b.field(named: "count")?.indexes == [.sortable])
        #expect(b.field(named: "secret") == SchemaFieldDefinition(name: "secret", type: SchemaFieldType(.bytes, isEncrypted: true)))
        #expect(b.field(named: "file")?.type == SchemaFieldType(.asset))
        #expect(b.field(named: "___createTime")?.indexes == [.sortable])
        #expect(b.grants == [SchemaGrant([.read], to: "Editors")])
        #expect(document.recordType(named: "A")?.grants == SchemaGrant.defaults(forRecordType: "A"))
        // What is left is valid: it parses back as it was.
        #expect(try SchemaParser.parse(SchemaWriter.write(document)) == document)
    }

    @Test("an imported file as a learned description: system fields by their index names, only where indexed")
    func importedDescription() throws {
        let document = try SchemaParser.parse(SchemaLanguageParserTests.tripSchema)
        let description = document.learnedDescription(container: "c", environment: .production)
        #expect(description.recordTypes.map(\.name) == ["Board", "Notice", "Trip"])
        let trip = try #require(description.recordTypes.last)
        let expected: [SchemaDescription.FieldDescription] = [
            .init(name: "___createTime", type: nil, indexes: [.sortable]),
            .init(name: "___recordId", type: nil, indexes: [.queryable]),
            .init(name: "note", type: .string, indexes: []),
            .init(name: "rank", type: .int64, indexes: [.queryable, .sortable]),
            .init(name: "tags", type: .stringList, indexes: [.queryable]),
            .init(name: "title", type: .string, indexes: [.queryable, .sortable, .searchable]),
        ]
        #expect(trip.fields == expected)
    }
}
