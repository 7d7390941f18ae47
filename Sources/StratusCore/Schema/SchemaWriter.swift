/// Writes a ``SchemaDocument`` as the CloudKit Schema Language, in the layout of Apple's exports.
///
/// ```
/// DEFINE SCHEMA
///
///     CREATE ROLE Moderators;
///
///     RECORD TYPE Note (
///         "___recordID" REFERENCE QUERYABLE,
///         title         STRING QUERYABLE SEARCHABLE SORTABLE,
///         GRANT WRITE TO "_creator",
///         GRANT READ TO "_world"
///     );
///
/// ```
///
/// Four spaces before statements, eight before a record type's items; field types aligned one
/// space after the type's longest field name; index options in the order `QUERYABLE SEARCHABLE
/// SORTABLE`, permissions `READ, CREATE, WRITE`; a comma after every item but the last; a blank
/// line after each record type. Names are bare when they are plain identifiers (a letter, then
/// letters, digits and `_`), quoted otherwise (`"___recordID"`, `"cloudkit.share"`, and `"grant"`,
/// which bare would start a GRANT line); roles in GRANTs are always quoted.
/// Record types, fields and grants keep the document's order.
///
/// The law: for every document ``SchemaParser/parse(_:)`` returns, `parse(write(document))`
/// is that document, and so `write(parse(write(document))) == write(document)`.
public enum SchemaWriter {
    /// The document as a schema file.
    public static func write(_ document: SchemaDocument) -> String {
        var text = "DEFINE SCHEMA\n\n"
        for role in document.roles {
            text += "    CREATE ROLE " + name(role) + ";\n"
        }
        if !document.roles.isEmpty {
            text += "\n"
        }
        for recordType in document.recordTypes {
            write(recordType, into: &text)
            text += "\n"
        }
        return text
    }

    /// One `RECORD TYPE … ( … );` block, ending in a newline.
    static func write(_ recordType: SchemaRecordType, into text: inout String) {
        text += "    RECORD TYPE " + name(recordType.name) + " (\n"
        let names = recordType.fields.map { name($0.name) }
        let width = (names.map(\.count).max() ?? 0) + 1
        var items: [String] = []
        for (field, written) in zip(recordType.fields, names) {
            var item = written + String(repeating: " ", count: width - written.count) + field.type.description
            if field.isQueryable { item += " QUERYABLE" }
            if field.isSearchable { item += " SEARCHABLE" }
            if field.isSortable { item += " SORTABLE" }
            items.append(item)
        }
        for grant in recordType.grants {
            let permissions = SchemaPermission.allCases.filter { grant.permissions.contains($0) }
            items.append("GRANT " + permissions.map(\.rawValue).joined(separator: ", ") + " TO " + quoted(grant.role))
        }
        for (index, item) in items.enumerated() {
            text += "        " + item + (index == items.count - 1 ? "\n" : ",\n")
        }
        text += "    );\n"
    }

    /// `name` bare when it is a plain identifier that cannot be read as GRANT, quoted otherwise.
    static func name(_ name: String) -> String {
        isBare(name) ? name : quoted(name)
    }

    /// `"name"`, with `"` and `\` escaped by a backslash.
    static func quoted(_ name: String) -> String {
        var text = "\""
        for character in name {
            if character == "\"" || character == "\\" {
                text.append("\\")
            }
            text.append(character)
        }
        text.append("\"")
        return text
    }

    /// A letter, then letters, digits and `_` (ASCII), and not the word GRANT in any case.
    static func isBare(_ name: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        guard let first = name.utf8.first, isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") } && name.uppercased() != "GRANT"
    }
}
