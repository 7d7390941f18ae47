import StratusModel
import StratusStore
import Testing

@testable import StratusCore

/// The public database's security roles decided from a schema's GRANTs with no store: how far
/// READ, CREATE and WRITE reach for each kind of caller, and the rights a batch carries.
@Suite("Schema language: security roles")
struct SecurityRolesTests {
    static let document = SchemaDocument(
        roles: ["Moderators"],
        recordTypes: [
            SchemaRecordType(name: "Trip", grants: [
                SchemaGrant([.write], to: SchemaRole.creator), SchemaGrant([.create], to: SchemaRole.icloud), SchemaGrant([.read], to: SchemaRole.world),
            ]),
            SchemaRecordType(name: "Board", grants: [SchemaGrant([.read, .create, .write], to: SchemaRole.icloud), SchemaGrant([.read], to: SchemaRole.world)]),
            SchemaRecordType(name: "Diary", grants: [SchemaGrant([.read, .write], to: SchemaRole.creator), SchemaGrant([.create], to: SchemaRole.icloud)]),
            SchemaRecordType(name: "Notice", grants: [SchemaGrant([.read], to: SchemaRole.world), SchemaGrant([.create, .write], to: "Moderators")]),
            SchemaRecordType(name: "Locked"),
        ]
    )
    static let roles = SecurityRoles(document: document)
    static let anonymous = Grantee(.anonymous)
    static let alice = Grantee(.user(userRecordName: "_alice"))
    static let moderator = Grantee(.user(userRecordName: "_mod"), roles: ["Moderators"])
    static let developer = Grantee(.developer)

    @Test("each permission reaches as its grants say: _world everyone, _icloud the signed in, _creator their own, a role its members")
    func reach() {
        let roles = Self.roles
        #expect(roles.reach(.read, recordType: "Trip", for: Self.anonymous) == .all)
        #expect(roles.reach(.create, recordType: "Trip", for: Self.anonymous) == .denied)
        #expect(roles.reach(.create, recordType: "Trip", for: Self.alice) == .all)
        #expect(roles.reach(.write, recordType: "Trip", for: Self.alice) == .own)
        #expect(roles.reach(.write, recordType: "Board", for: Self.alice) == .all)
        #expect(roles.reach(.read, recordType: "Diary", for: Self.alice) == .own)
        #expect(roles.reach(.read, recordType: "Diary", for: Self.anonymous) == .denied)
        #expect(roles.reach(.create, recordType: "Notice", for: Self.alice) == .denied)
        #expect(roles.reach(.create, recordType: "Notice", for: Self.moderator) == .all)
        #expect(roles.reach(.write, recordType: "Notice", for: Self.moderator) == .all)
        #expect(roles.reach(.read, recordType: "Locked", for: Self.alice) == .denied)
        #expect(roles.reach(.write, recordType: "Locked", for: Self.developer) == .all)
        // A type the document does not define has CloudKit's defaults.
        #expect(roles.reach(.create, recordType: "Learned", for: Self.alice) == .all)
        #expect(roles.reach(.write, recordType: "Learned", for: Self.alice) == .own)
        #expect(roles.reach(.create, recordType: "Users", for: Self.alice) == .denied)
        #expect(roles.mayRead(recordType: "Diary", createdBy: "_alice", grantee: Self.alice))
        #expect(!roles.mayRead(recordType: "Diary", createdBy: "_bob", grantee: Self.alice))
        #expect(roles.grantsCustomRoles && !SecurityRoles.defaults.grantsCustomRoles)
    }

    @Test("without a schema every type has CloudKit's defaults, Users too, as before schemas")
    func defaults() {
        let rights = SecurityRoles.defaults.writeRights(for: Self.alice)
        #expect(rights == WriteRights.creatorWrites)
        #expect(SecurityRoles.defaults.reach(.create, recordType: "Users", for: Self.alice) == .all)
        #expect(SecurityRoles.defaults.writeRights(for: Self.developer) == nil)
    }

    @Test("a batch's rights: per defined type, Users' own defaults, CloudKit's defaults otherwise")
    func writeRights() throws {
        let rights = try #require(Self.roles.writeRights(for: Self.alice))
        #expect(rights.permissions(for: "Trip") == WriteRights.Permissions(create: true, changeOwn: true, changeAny: false))
        #expect(rights.permissions(for: "Board") == WriteRights.Permissions(create: true, changeOwn: true, changeAny: true))
        #expect(rights.permissions(for: "Notice") == WriteRights.Permissions(create: false, changeOwn: false, changeAny: false))
        #expect(rights.permissions(for: "Users") == WriteRights.Permissions(create: false, changeOwn: true, changeAny: false))
        #expect(rights.permissions(for: "Learned") == WriteRights.Permissions(create: true, changeOwn: true, changeAny: false))
        let moderator = try #require(Self.roles.writeRights(for: Self.moderator))
        #expect(moderator.permissions(for: "Notice") == WriteRights.Permissions(create: true, changeOwn: true, changeAny: true))
    }
}

/// What an import writes and refuses, and the law that an export imported again exports the same.
@Suite("Schema language: import plans")
struct SchemaImportPlanTests {
    static let text = """
        DEFINE SCHEMA
            CREATE ROLE Crew;
            RECORD TYPE Trip (
                "___createTime" TIMESTAMP SORTABLE,
                "___recordID"   REFERENCE QUERYABLE,
                title           STRING QUERYABLE SEARCHABLE SORTABLE,
                secret          ENCRYPTED STRING,
                photo           ASSET,
                GRANT WRITE TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "_world"
            );
            RECORD TYPE Marker (
                "___recordID" REFERENCE,
                GRANT READ, WRITE TO "Crew"
            );
            RECORD TYPE "cloudkit.share" ( "___recordID" REFERENCE QUERYABLE );
        """

    /// What `SchemaService.describe` would answer once `replacement` is the store's schema.
    static func described(_ replacement: SchemaReplacement) -> SchemaDescription {
        var types: [String: [String: (FieldType?, Set<IndexKind>)]] = [:]
        for field in replacement.fields { types[field.recordType, default: [:]][field.fieldName] = (field.type, []) }
        for index in replacement.indexes {
            var entry = types[index.recordType, default: [:]][index.fieldName] ?? (nil, [])
            entry.1.insert(index.kind)
            types[index.recordType, default: [:]][index.fieldName] = entry
        }
        return SchemaDescription(container: replacement.container, environment: replacement.environment, recordTypes: types.keys.sorted().map { name in
            .init(name: name, fields: (types[name] ?? [:]).keys.sorted().map { field in
                let (type, indexes) = types[name]?[field] ?? (nil, [])
                return .init(name: field, type: type, indexes: IndexKind.allCases.filter { indexes.contains($0) })
            })
        })
    }

    @Test("fields, indexes (system ones by index name) and the document; encryption kept in the document, cloudkit. types only there")
    func replacement() throws {
        let document = try SchemaParser.parse(Self.text)
        try SchemaImportPlan.check(document)
        let replacement = SchemaImportPlan.replacement(document, container: "c", environment: .development)
        #expect(Set(replacement.fields.map { "\($0.recordType).\($0.fieldName) \($0.type.rawValue)" }) == [
            "Trip.title STRING", "Trip.secret STRING", "Trip.photo ASSET",
        ])
        #expect(Set(replacement.indexes.map { "\($0.recordType).\($0.fieldName) \($0.kind.rawValue)" }) == [
            "Trip.___createTime SORTABLE", "Trip.___recordId QUERYABLE", "Trip.title QUERYABLE", "Trip.title SEARCHABLE", "Trip.title SORTABLE",
        ])
        #expect(try SchemaParser.parse(replacement.document) == document)
    }

    @Test("an export imported again exports the same text: grants, roles, encryption and field-less types included")
    func exportImportExport() throws {
        let document = try SchemaParser.parse(Self.text)
        let imported = SchemaImportPlan.replacement(document, container: "c", environment: .development)
        let export = SchemaWriter.write(SchemaDocument(learned: Self.described(imported), declared: document))
        let again = try SchemaParser.parse(export)
        #expect(again.recordType(named: "Trip")?.field(named: "secret")?.type == SchemaFieldType(.string, isEncrypted: true), "\(export)")
        #expect(again.recordType(named: "Marker")?.grants == [SchemaGrant([.read, .write], to: "Crew")], "\(export)")
        #expect(again.roles == ["Crew"] && again.recordType(named: "cloudkit.share") != nil, "\(export)")
        let reimported = SchemaImportPlan.replacement(again, container: "c", environment: .development)
        let second = SchemaWriter.write(SchemaDocument(learned: Self.described(reimported), declared: again))
        #expect(second == export)
    }

    @Test("names CloudKit does not allow, and what production has, refuse the document")
    func refusals() throws {
        for bad in [
            "DEFINE SCHEMA RECORD TYPE \"9lives\" ( a STRING );",
            "DEFINE SCHEMA RECORD TYPE T ( \"not a name\" STRING );",
            "DEFINE SCHEMA RECORD TYPE T ( \"___recordId\" REFERENCE QUERYABLE );",
            "DEFINE SCHEMA RECORD TYPE T ( \"___createTime\" STRING );",
        ] {
            #expect(throws: CoreError.self, "\(bad)") { try SchemaImportPlan.check(try SchemaParser.parse(bad)) }
        }
        let production = SchemaDescription(container: "c", environment: .production, recordTypes: [
            .init(name: "Trip", fields: [.init(name: "title", type: .string, indexes: []), .init(name: "___recordId", type: nil, indexes: [.queryable])]),
        ])
        let keeps = try SchemaParser.parse("DEFINE SCHEMA RECORD TYPE Trip ( title STRING, more INT64 ); RECORD TYPE New ( a STRING );")
        try SchemaImportPlan.checkKeeps(production, document: keeps)
        for dropping in [
            "DEFINE SCHEMA RECORD TYPE New ( a STRING );",
            "DEFINE SCHEMA RECORD TYPE Trip ( more INT64 );",
            "DEFINE SCHEMA RECORD TYPE Trip ( title INT64 );",
        ] {
            #expect(throws: CoreError.self, "\(dropping)") { try SchemaImportPlan.checkKeeps(production, document: try SchemaParser.parse(dropping)) }
        }
    }
}
