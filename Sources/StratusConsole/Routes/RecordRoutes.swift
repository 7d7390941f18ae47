import Foundation
import Hummingbird
import Logging
import StratusCore
import StratusModel

/// Writing as an account: zones created and deleted, records saved, edited and deleted, the
/// query builder, zone compaction and reset, and accepting a share. Each goes through the same
/// Core call the CKWS route makes, in the account's scope.
struct RecordRoutes: Sendable {
    let console: Console
    var services: StratusServices { console.services }
    private static let logger = Logger(label: "stratus.console")

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.post("c/:container/:environment/u/:user/:database/zones", use: console.action(changeZone))
        group.post("c/:container/:environment/u/:user/:database/records", use: console.action(changeRecord))
        group.post("c/:container/:environment/u/:user/:database/zone-tools", use: console.action(zoneTool))
        group.post("c/:container/:environment/u/:user/accept", use: console.action(accept))
        group.get("c/:container/:environment/u/:user/:database/query", use: console.page(query))
    }

    private func changeZone(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        _ = try await BrowseRoutes(console: console).requireAccount(place)
        let name = try request.form.required("zone", label: "the zone name")
        let deleting = request.form["operation"] == "delete"
        let operation = ModifyZonesRequest.Operation(deleting ? .delete : .create, ZoneID(zoneName: name))
        var zonePlace = place
        zonePlace.zone = name
        _ = try await services.faultCheck(zonePlace, endpoint: "zones/modify")
        let answer = try await services.zones.modify(ModifyZonesRequest(operations: [operation]), scope: place.scope(origin: request.origin))
        if let error = answer.zones.first?.error { throw ConsoleFailure(error) }
        return deleting ? ("Zone \(name) deleted.", place.databasePath) : ("Zone \(name) created.", zonePlace.zonePath())
    }

    private func changeRecord(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        _ = try await BrowseRoutes(console: console).requireAccount(place)
        let (operation, notice) = try await Self.operation(from: request.form, place: place, services: services, origin: request.origin)
        let saved = try await Self.modify(operation, place: place, services: services, origin: request.origin)
        let next = operation.operationType.isDelete ? (request.form["next"] ?? place.zonePath()) : place.recordPath(saved.recordName ?? "")
        return (notice, next)
    }

    /// The records/modify operation a record form asks for: save (create, or set up to three fields
    /// of an existing record at once), edit (every field of the form, with the change tag it was read at) or delete.
    static func operation(
        from form: FormFields, place: Place, services: StratusServices, origin: String
    ) async throws -> (RecordOperation, String) {
        let name = try form.required("name", label: "the record name")
        switch form["operation"] {
        case "delete":
            let tag = form["changeTag"]
            return (RecordOperation(tag == nil ? .forceDelete : .delete, Record(recordName: name, recordChangeTag: tag)), "Record \(name) deleted.")
        case "edit":
            var fields: [String: Field] = [:]
            for key in form.names where key.hasPrefix("field.") {
                let fieldName = String(key.dropFirst("field.".count))
                fields[fieldName] = try FieldText.field(
                    named: fieldName, type: form["type.\(fieldName)"] ?? "STRING", text: form.raw(key) ?? ""
                )
            }
            if let newField = form["newField"] {
                fields[newField] = try FieldText.field(named: newField, type: form["newType"] ?? "STRING", text: form.raw("newValue") ?? "")
            }
            let record = Record(recordName: name, recordChangeTag: form["changeTag"], fields: fields)
            return (RecordOperation(form["changeTag"] == nil ? .forceUpdate : .update, record), "Record \(name) saved.")
        default:
            let fields = try saveFormFields(form)
            let found = try await services.records.lookup(
                LookupRecordsRequest(records: [.init(recordName: name, desiredKeys: [])], zoneID: place.zoneID),
                scope: place.scope(origin: origin)
            )
            if let existing = found.records.first?.record {
                let record = Record(recordName: name, recordChangeTag: existing.recordChangeTag, fields: fields)
                return (RecordOperation(.update, record), "Record \(name) saved.")
            }
            let type = try form.required("recordType", label: "the record type")
            return (RecordOperation(.create, Record(recordName: name, recordType: type, fields: fields)), "Record \(name) created.")
        }
    }

    /// The rows of the save form, saved together: `field`/`type`/`value`, then `field2`… up to
    /// ``saveFormRows`` (a row without a field name is left out; at least one is needed).
    static func saveFormFields(_ form: FormFields) throws -> [String: Field] {
        var fields: [String: Field] = [:]
        for row in 1...saveFormRows {
            let suffix = row == 1 ? "" : String(row)
            guard let fieldName = form["field\(suffix)"] else { continue }
            fields[fieldName] = try FieldText.field(named: fieldName, type: form["type\(suffix)"] ?? "STRING", text: form.raw("value\(suffix)") ?? "")
        }
        if fields.isEmpty { _ = try form.required("field", label: "the field name") }
        return fields
    }

    /// How many field rows the save form offers.
    static let saveFormRows = 3

    /// One records/modify in the place's zone; a per-record error becomes the failure.
    @discardableResult
    static func modify(_ operation: RecordOperation, place: Place, services: StratusServices, origin: String) async throws -> Record {
        var scope = try place.scope(origin: origin)
        scope.itemFault = try await services.faultCheck(place, endpoint: "records/modify", recordTypes: [operation.record.recordType].compactMap { $0 })
        let answer = try await services.records.modify(
            ModifyRecordsRequest(operations: [operation], zoneID: place.zoneID), scope: scope, logger: logger
        )
        guard let result = answer.records.first else { throw ConsoleFailure("The server answered nothing.") }
        if let error = result.error { throw ConsoleFailure(error) }
        return result.record ?? operation.record
    }

    private func zoneTool(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        _ = try await BrowseRoutes(console: console).requireAccount(place)
        let zone = try request.form.required("zone", label: "the zone")
        guard let user = place.user else { throw ConsoleFailure("Choose an account.") }
        switch request.form["operation"] {
        case "reset":
            _ = try await services.admin.resetZone(ZoneResetRequest(
                container: place.container, environment: place.environment, userRecordName: user, zoneName: zone, reason: .encryptedDataReset
            ))
            return ("Zone \(zone) reset: its records are gone and devices are told it was lost to an encrypted data reset.", place.databasePath)
        default:
            let database = DatabaseRef(container: place.container, environment: place.environment, scope: .private)
            _ = try await services.admin.compact(zoneName: zone, ownerRecordName: user, database: database)
            return ("Zone \(zone) compacted: change tokens older than now answer CHANGE_TOKEN_EXPIRED.", place.zonePath())
        }
    }

    private func accept(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        _ = try await BrowseRoutes(console: console).requireAccount(place)
        let given = try request.form.required("shortGUID", label: "the short GUID")
        // A share URL ends with its short GUID.
        let guid = given.split(separator: "/").last.map(String.init) ?? given
        var scoped = place
        scoped.scope = .public
        let answer = try await services.shares.accept(
            ShortGUIDsRequest(shortGUIDs: [ShortGUIDRequest(value: guid, shouldFetchRootRecord: false)]),
            scope: scoped.scope(origin: request.origin)
        )
        guard let result = answer.results.first else { throw ConsoleFailure("The server answered nothing.") }
        if let error = result.error { throw ConsoleFailure(item: "Share \(guid)", code: error.serverErrorCode, reason: error.reason) }
        var shared = place
        shared.scope = .shared
        return ("Share accepted: it is in this account's shared database.", shared.databasePath)
    }
}
