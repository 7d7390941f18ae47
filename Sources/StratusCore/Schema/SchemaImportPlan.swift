import StratusModel
import StratusStore

/// What importing a schema document into a container environment writes, and why a document is
/// refused, decided with no I/O (``SchemaService/importDocument(_:container:)`` reads production's
/// schema, asks here, then writes the replacement in one transaction).
///
/// A document replaces the environment's schema: its user fields become the learned field types
/// (an encrypted type CKWS has no tag for, `ENCRYPTED STRING` say, is stored as its plain type,
/// as its values arrive; the document keeps the encryption for the export), its indexes the
/// indexes (a system field's under its index name: `___recordID` is `___recordId`), and the
/// document itself is kept for its roles and grants. CloudKit's own `cloudkit.` types live in the
/// document only.
enum SchemaImportPlan {
    /// The CKWS type a field of `type` is stored as: its own tag, or the plain type's for an
    /// encrypted type without one.
    static func storedType(of type: SchemaFieldType) -> FieldType? {
        type.wireType ?? SchemaFieldType(type.scalar, isList: type.isList).wireType
    }

    /// Checks the names a document gives against CloudKit's rules.
    /// - Throws: `BAD_REQUEST` naming the first record type or field CloudKit would not take: a
    ///   name that is not an identifier, a system field (`___…`) CloudKit does not have, or one
    ///   of another type than CloudKit's.
    static func check(_ document: SchemaDocument) throws(CoreError) {
        for recordType in document.recordTypes {
            guard NameRules.isValidIdentifier(recordType.name) else {
                throw refusal("record type '\(recordType.name)' is not a CloudKit name (a letter, then letters, digits, '_' or '.', at most 255)")
            }
            for field in recordType.fields {
                if field.isSystemField {
                    guard let system = SchemaFieldDefinition.systemFields.first(where: { $0.name == field.name }) else {
                        let known = SchemaFieldDefinition.systemFields.map { "\"\($0.name)\"" }.joined(separator: ", ")
                        throw refusal("'\(field.name)' of record type '\(recordType.name)' is not a CloudKit system field (they are \(known))")
                    }
                    guard system.type == field.type else {
                        throw refusal("system field '\(field.name)' of record type '\(recordType.name)' is \(system.type), not \(field.type)")
                    }
                } else {
                    guard NameRules.isValidIdentifier(field.name), storedType(of: field.type) != nil else {
                        throw refusal("field '\(field.name)' of record type '\(recordType.name)' is not a CloudKit name (a letter, then letters, digits, '_' or '.', at most 255)")
                    }
                }
            }
        }
    }

    /// Checks that `document` keeps every record type and field `production` has, each with its
    /// type (Apple: a schema that would drop what production has "isn't valid and CloudKit makes
    /// no changes").
    /// - Throws: `BAD_REQUEST` naming the first record type or field it would drop or retype.
    static func checkKeeps(_ production: SchemaDescription, document: SchemaDocument) throws(CoreError) {
        try checkTypes(of: production, in: "production", document: document, mayDrop: false)
    }

    /// - Throws: `BAD_REQUEST` when `document` gives a field development has another type: its
    ///   records keep values of the type they were saved with, so CloudKit never retypes a field
    ///   (leave it out of one import, which drops it, and add it again in the next).
    static func checkRetypes(_ development: SchemaDescription, document: SchemaDocument) throws(CoreError) {
        try checkTypes(of: development, in: "development", document: document, mayDrop: true)
    }

    private static func checkTypes(of schema: SchemaDescription, in environment: String, document: SchemaDocument, mayDrop: Bool) throws(CoreError) {
        for recordType in schema.recordTypes {
            guard let kept = document.recordType(named: recordType.name) else {
                if mayDrop { continue }
                throw refusal("it leaves out record type '\(recordType.name)', which production has (deployed types and fields are never dropped)")
            }
            for field in recordType.fields where !field.name.hasPrefix("___") {
                guard let type = field.type else { continue }
                guard let written = kept.field(named: field.name) else {
                    if mayDrop { continue }
                    throw refusal(
                        "it leaves out field '\(field.name)' of record type '\(recordType.name)', which production has (deployed types and fields are never dropped)"
                    )
                }
                guard normalized(storedType(of: written.type)) == normalized(type) else {
                    throw refusal(
                        "field '\(field.name)' of record type '\(recordType.name)' is \(SchemaFieldType(wireType: type)) in \(environment); the file makes it \(written.type) (a field's type never changes)"
                    )
                }
            }
        }
    }

    /// The environment's schema as `document` states it.
    static func replacement(_ document: SchemaDocument, container: String, environment: ContainerEnvironment) -> SchemaReplacement {
        var fields: [SchemaField] = []
        var indexes: [IndexDefinition] = []
        for recordType in document.recordTypes where !NameRules.isReservedRecordType(recordType.name) {
            for field in recordType.fields {
                if !field.isSystemField, let type = storedType(of: field.type) {
                    fields.append(SchemaField(recordType: recordType.name, fieldName: field.name, type: type))
                }
                let indexName = field.isSystemField ? IndexRequirements.storedName(of: field.name) : field.name
                for kind in field.indexes {
                    indexes.append(
                        IndexDefinition(container: container, environment: environment, recordType: recordType.name, fieldName: indexName, kind: kind)
                    )
                }
            }
        }
        return SchemaReplacement(
            container: container, environment: environment, fields: fields, indexes: indexes, document: SchemaWriter.write(document)
        )
    }

    /// An asset being uploaded (`ASSETID`) is an `ASSET` field.
    static func normalized(_ type: FieldType?) -> FieldType? {
        switch type {
        case .assetID?: .asset
        case .assetIDList?: .assetList
        default: type
        }
    }

    /// A refused import: `BAD_REQUEST`, saying nothing changed.
    static func refusal(_ why: String) -> CoreError {
        CoreError.badRequest("the schema is not valid and nothing changed: \(why)")
    }
}
