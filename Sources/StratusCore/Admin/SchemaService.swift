import StratusModel
import StratusStore

/// The schema's admin side: show a container environment's types, fields and indexes; add or
/// remove an index; deploy the development schema to production; export and import the schema
/// as the CloudKit Schema Language (`SchemaService+Language`); give users the roles it makes
/// (`SchemaService+Roles`).
public struct SchemaService: Sendable {
    let store: any RecordStore & SchemaStore & SchemaDocumentStore
    let cache: SchemaCache

    /// Record types with their fields' types and indexes (system fields by index name).
    public func describe(container: String, environment: ContainerEnvironment) async throws(CoreError) -> SchemaDescription {
        do {
            let fields = try await store.schema(container: container, environment: environment)
            let indexes = SchemaCache.grouped(try await store.indexes(container: container, environment: environment))
            let types = Set(fields.keys).union(indexes.keys).sorted()
            return SchemaDescription(container: container, environment: environment, recordTypes: types.map { type in
                let names = Set(fields[type, default: [:]].keys).union(indexes[type, default: [:]].keys).sorted()
                return .init(name: type, fields: names.map { name in
                    .init(
                        name: name, type: fields[type]?[name],
                        indexes: IndexKind.allCases.filter { indexes[type]?[name]?.contains($0) == true }
                    )
                })
            })
        } catch {
            throw CoreError(error)
        }
    }

    /// Adds or removes one index; a QUERYABLE or SORTABLE index on a user field is a SQL index.
    /// - Throws: `BAD_REQUEST` for a bad record type or field name; `NOT_FOUND` for one production
    ///   does not have (its schema is locked: deploy development's first).
    public func changeIndex(_ request: IndexChangeRequest) async throws(CoreError) -> SchemaDescription {
        let systemNames = Set(QueryTranslation.systemFields.keys.filter { $0.hasPrefix("___") })
        guard NameRules.isValidIdentifier(request.recordType) else { throw CoreError.badRequest("invalid recordType '\(request.recordType)'") }
        guard systemNames.contains(request.fieldName) || NameRules.isValidIdentifier(request.fieldName) else {
            throw CoreError.badRequest("invalid fieldName '\(request.fieldName)'")
        }
        // Production's schema is locked: an index goes only on a type and field it already has
        // (a typo must not quietly create them; deploy development first).
        if request.environment == .production, request.present ?? true {
            let schema = try await describe(container: request.container, environment: .production)
            guard let type = schema.recordTypes.first(where: { $0.name == request.recordType }) else {
                let known = schema.recordTypes.map(\.name).joined(separator: ", ")
                throw CoreError(
                    .notFound, "production has no record type '\(request.recordType)' (types: \(known.isEmpty ? "none" : known)); deploy development's schema first"
                )
            }
            guard systemNames.contains(request.fieldName) || type.fields.contains(where: { $0.name == request.fieldName }) else {
                throw CoreError(
                    .notFound, "production's \(request.recordType) has no field '\(request.fieldName)' (fields: \(type.fields.map(\.name).joined(separator: ", ")))"
                )
            }
        }
        // `___recordID` (Apple's schema files) is stored as `___recordId`, the name queries look up.
        let index = IndexDefinition(
            container: request.container, environment: request.environment, recordType: request.recordType,
            fieldName: IndexRequirements.storedName(of: request.fieldName), kind: request.index
        )
        do {
            try await store.setIndex(index, present: request.present ?? true)
        } catch {
            throw CoreError(error)
        }
        cache.forget(container: request.container)
        return try await describe(container: request.container, environment: request.environment)
    }

    /// Copies development's types, fields and indexes into production (adding, never removing),
    /// and development's imported document (its roles and grants), when it has one.
    public func deploy(container: String) async throws(CoreError) -> SchemaDescription {
        do {
            try await store.deploySchema(container: container)
        } catch {
            throw CoreError(error)
        }
        cache.forget(container: container)
        return try await describe(container: container, environment: .production)
    }
}
