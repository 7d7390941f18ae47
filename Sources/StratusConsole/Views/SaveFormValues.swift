import StratusModel

/// What the "Save a record" form shows: empty rows (the first naming `title`), or — after the
/// server refused it — what was typed, each row's type still chosen, so nothing is typed twice.
enum SaveFormValues {
    static func values(refused: [String: String]? = nil) -> [String: Any] {
        let form = refused ?? [:]
        let rows: [[String: Any]] = (1...RecordRoutes.saveFormRows).map { row in
            let suffix = row == 1 ? "" : String(row)
            let chosen = form["type\(suffix)"] ?? "STRING"
            return [
                "suffix": suffix, "label": row == 1 ? "Field" : "Another field",
                "field": form["field\(suffix)"] ?? (refused == nil && row == 1 ? "title" : ""), "value": form["value\(suffix)"] ?? "",
                "rowTypes": FieldText.editableTypes.map { ["type": $0.rawValue, "selected": $0.rawValue == chosen] },
            ]
        }
        return ["saveRows": rows, "saveName": form["name"] ?? "", "saveRecordType": form["recordType"] ?? "Destination"]
    }
}
