import StratusModel

/// A container's learned schema (``SchemaService/describe(container:environment:)``: the
/// field types saves taught development, the indexes added or deployed) to and from a schema
/// document, so `stratus schema export` can write what a container learned.
extension SchemaDocument {
    /// The learned schema as Apple would export it: record types and fields in byte order of
    /// their names, each type with CloudKit's six system fields (indexed where the learned schema
    /// indexes them: `___recordId` there is `"___recordID"` here), and `grants[type]` or
    /// CloudKit's default grants (``SchemaGrant/defaults(forRecordType:)``).
    ///
    /// What the language cannot say is left out: a field with an index but no learned type, a
    /// system name CloudKit's exports do not list, an index on an `ENCRYPTED BYTES` field,
    /// `SEARCHABLE` on a field that is not `STRING` or `LIST<STRING>`. `ASSETID` fields are `ASSET`s.
    public init(learned description: SchemaDescription, roles: [String] = [], grants: [String: [SchemaGrant]] = [:]) {
        var recordTypes: [SchemaRecordType] = []
        for learned in description.recordTypes {
            var fields: [SchemaFieldDefinition] = []
            var systemIndexes: [String: [IndexKind]] = [:]
            for field in learned.fields {
                if let system = Self.systemField(indexName: field.name) {
                    systemIndexes[system.name, default: []] += field.indexes
                } else if let type = field.type {
                    var definition = SchemaFieldDefinition(name: field.name, type: SchemaFieldType(wireType: type), indexes: field.indexes)
                    if !definition.type.canBeIndexed {
                        definition = SchemaFieldDefinition(name: definition.name, type: definition.type)
                    }
                    definition.isSearchable = definition.isSearchable && definition.type.canBeSearchable
                    fields.append(definition)
                }
            }
            for system in SchemaFieldDefinition.systemFields {
                fields.append(SchemaFieldDefinition(name: system.name, type: system.type, indexes: systemIndexes[system.name] ?? []))
            }
            fields.sort { Self.precedes($0.name, $1.name) }
            recordTypes.append(
                SchemaRecordType(name: learned.name, fields: fields, grants: grants[learned.name] ?? SchemaGrant.defaults(forRecordType: learned.name))
            )
        }
        recordTypes.sort { Self.precedes($0.name, $1.name) }
        self.init(roles: roles, recordTypes: recordTypes)
    }

    /// This document as a learned schema's description: what `describe` would show once it is
    /// imported. Types and fields sorted by name, as `describe` sorts them; system fields only
    /// where they have indexes, named as queries look them up (`___recordId`), with no type;
    /// encrypted fields other than `ENCRYPTED BYTES` with no type (CKWS has no tag for them).
    public func learnedDescription(container: String, environment: ContainerEnvironment) -> SchemaDescription {
        let types = recordTypes.map { recordType -> SchemaDescription.RecordTypeDescription in
            var fields: [SchemaDescription.FieldDescription] = []
            for field in recordType.fields {
                if field.isSystemField {
                    guard !field.indexes.isEmpty else { continue }
                    fields.append(.init(name: IndexRequirements.storedName(of: field.name), type: nil, indexes: field.indexes))
                } else {
                    fields.append(.init(name: field.name, type: field.type.wireType, indexes: field.indexes))
                }
            }
            fields.sort { $0.name < $1.name }
            return SchemaDescription.RecordTypeDescription(name: recordType.name, fields: fields)
        }
        return SchemaDescription(container: container, environment: environment, recordTypes: types.sorted { $0.name < $1.name })
    }

    /// The system field whose index is stored as `indexName` (`___recordId` → `___recordID`).
    static func systemField(indexName: String) -> SchemaFieldDefinition? {
        guard indexName.hasPrefix("___") else { return nil }
        return SchemaFieldDefinition.systemFields.first { IndexRequirements.storedName(of: $0.name) == indexName }
    }
}
