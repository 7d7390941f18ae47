import StratusModel
import StratusStore

/// A container's schema in and out as the CloudKit Schema Language (`.ckdb`), as
/// `xcrun cktool export-schema` and `import-schema` move it to and from Apple's CloudKit.
extension SchemaService {
    /// A container environment's schema as a schema file: every record type with its fields
    /// (Apple's type names), their indexes, and the GRANTs (``exportDocument(container:environment:)``).
    /// - Throws: ``CoreError`` when the store cannot be read.
    public func export(container: String, environment: ContainerEnvironment) async throws(CoreError) -> String {
        SchemaWriter.write(try await exportDocument(container: container, environment: environment))
    }

    /// A container environment's schema as a document: the learned schema
    /// (``describe(container:environment:)``) with the imported document's roles, grants and
    /// encryption (``SchemaDocument/init(learned:declared:)``), CloudKit's default grants for a
    /// type no imported document defines.
    /// - Throws: ``CoreError`` when the store cannot be read.
    public func exportDocument(container: String, environment: ContainerEnvironment) async throws(CoreError) -> SchemaDocument {
        let learned = try await describe(container: container, environment: environment)
        let declared = try await CoreError.translating { () async throws(StoreError) -> SchemaDocument? in
            try await cache.declared(container: container, environment: environment)
        }
        return SchemaDocument(learned: learned, declared: declared)
    }

    /// Replaces the container's development schema with a schema file's, as
    /// `xcrun cktool import-schema` does (``importDocument(_:container:)``).
    ///
    /// ```swift
    /// try await services.schema.importSchema(String(contentsOfFile: "app.ckdb"), container: "iCloud.com.example.App")
    /// ```
    /// - Throws: `BAD_REQUEST` when the file has an error, naming its line and what was expected
    ///   there (`line 12, column 25: expected a field type (…), found 'INTEGER64'`), and for what
    ///   ``importDocument(_:container:)`` refuses; nothing changes then.
    public func importSchema(_ text: String, container: String) async throws(CoreError) -> SchemaDescription {
        let document: SchemaDocument
        do {
            document = try SchemaParser.parse(text)
        } catch {
            throw CoreError.badRequest("\(error) (the schema is not valid and nothing changed)")
        }
        return try await importDocument(document, container: container)
    }

    /// Replaces the container's development schema with `document`: its record types, fields,
    /// indexes, roles and grants, in one store transaction (``SchemaImportPlan``). A type or
    /// field development learned that `document` leaves out is dropped (records keep their
    /// values; a save teaches the field again). Answers development's schema as it now is.
    /// - Throws: `BAD_REQUEST`, with nothing changed, for a name CloudKit does not allow, when
    ///   `document` would drop or retype a record type or field production has (deploy only ever
    ///   adds, so production's schema stays within development's), or retype a field development has.
    public func importDocument(_ document: SchemaDocument, container: String) async throws(CoreError) -> SchemaDescription {
        try SchemaImportPlan.check(document)
        let production = try await describe(container: container, environment: .production)
        try SchemaImportPlan.checkKeeps(production, document: document)
        try SchemaImportPlan.checkRetypes(try await describe(container: container, environment: .development), document: document)
        let replacement = SchemaImportPlan.replacement(document, container: container, environment: .development)
        do {
            try await store.replaceSchema(replacement)
        } catch {
            throw CoreError(error)
        }
        cache.forget(container: container)
        return try await describe(container: container, environment: .development)
    }
}
