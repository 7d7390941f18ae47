import StratusModel

/// A container environment's export: its learned schema told with what only the document it
/// imported (``SchemaService/importDocument(_:container:)``) can say.
extension SchemaDocument {
    /// The learned schema as an export (``init(learned:roles:grants:)``), with `declared` (the
    /// document last imported, `nil` for none) supplying its roles, each type's grants (CloudKit's
    /// defaults for a type it does not define), a field's encryption where the learned field has
    /// the plain type and no index, and the types the learned schema cannot hold (only unindexed
    /// system fields; CloudKit's own `cloudkit.` types) as it defines them, fields in export order.
    ///
    /// An export imported again exports the same text.
    public init(learned description: SchemaDescription, declared: SchemaDocument?) {
        guard let declared else {
            self.init(learned: description)
            return
        }
        var grants: [String: [SchemaGrant]] = [:]
        for recordType in declared.recordTypes {
            grants[recordType.name] = recordType.grants
        }
        self.init(learned: description, roles: declared.roles, grants: grants)
        for index in recordTypes.indices {
            guard let source = declared.recordType(named: recordTypes[index].name) else { continue }
            for position in recordTypes[index].fields.indices {
                let field = recordTypes[index].fields[position]
                guard field.indexes.isEmpty, let written = source.field(named: field.name), written.type.isEncrypted,
                    let stored = SchemaImportPlan.storedType(of: written.type), SchemaFieldType(wireType: stored) == field.type
                else { continue }
                recordTypes[index].fields[position].type = written.type
            }
        }
        let learned = Set(recordTypes.map(\.name))
        for recordType in declared.recordTypes where !learned.contains(recordType.name) {
            var kept = recordType
            kept.fields.sort { Self.precedes($0.name, $1.name) }
            recordTypes.append(kept)
        }
        recordTypes.sort { Self.precedes($0.name, $1.name) }
    }
}
