import StratusModel

/// A record as the console's templates read it: system fields in words, typed fields with their
/// edit text, links to its parent and share, and image previews of its assets.
enum RecordValues {
    static func summary(_ record: Record, place: Place, people: AccountDirectory) -> [String: Any] {
        let name = record.recordName ?? ""
        let fields = (record.fields ?? [:]).sorted { $0.key < $1.key }
        return [
            "name": name, "type": record.recordType ?? "", "href": place.recordPath(name),
            "modified": record.modified.map { FieldText.date($0.timestamp) } ?? "",
            "modifiedAt": record.modified?.timestamp ?? 0,
            "modifiedBy": people.name(record.modified?.userRecordName),
            "fieldsText": fields.prefix(4).map { "\($0.key): \(FieldText.display($0.value))" }.joined(separator: " · "),
            "isShare": record.recordType == ShareNames.recordType,
        ]
    }

    static func detail(_ record: Record, place: Place, people: AccountDirectory) -> [String: Any] {
        var values = summary(record, place: place, people: people)
        let name = record.recordName ?? ""
        values["changeTag"] = record.recordChangeTag ?? ""
        values["created"] = record.created.map { "\(FieldText.date($0.timestamp)) by \(people.name($0.userRecordName))" } ?? ""
        if let device = record.modified?.deviceID { values["modifiedDevice"] = device }
        if let parent = record.parent { values["parent"] = ["name": parent.recordName, "href": place.recordPath(parent.recordName)] }
        if let share = record.share { values["share"] = ["name": share.recordName, "href": place.sharePath(share.recordName)] }
        values["fields"] = (record.fields ?? [:]).sorted { $0.key < $1.key }.map { key, field -> [String: Any] in
            var item: [String: Any] = [
                "name": key, "type": field.type.rawValue, "display": FieldText.display(field), "editText": FieldText.editText(field),
                "editable": FieldText.isEditable(field),
            ]
            // A download URL ends in the `${f}` file-name placeholder: the field's name fills it.
            let previews = field.value.assets.compactMap(\.downloadURL).map { url in
                ["url": AssetValue.fetchURL(url, fileName: key), "alt": "\(key) of \(name)"]
            }
            if !previews.isEmpty { item["previews"] = previews }
            return item
        }
        values["types"] = FieldText.editableTypes.map { ["type": $0.rawValue] }
        return values
    }
}
