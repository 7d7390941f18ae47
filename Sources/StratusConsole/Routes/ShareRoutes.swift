import Foundation
import Hummingbird
import StratusCore
import StratusModel

/// Sharing from the owner's side: a share's participants with role, permission and acceptance;
/// sharing a record or a zone, inviting, changing a permission, removing a participant and
/// stopping the share. Each change is a records/modify of the share record, as the owner.
struct ShareRoutes: Sendable {
    let console: Console
    private var services: StratusServices { console.services }

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("c/:container/:environment/u/:user/:database/share", use: console.page(share))
        group.post("c/:container/:environment/u/:user/:database/share", use: console.action(change))
    }

    private func share(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let account = try await BrowseRoutes(console: console).requireAccount(place)
        let name = try request.query.required("name", label: "the share")
        let record = try await lookup(name, place: place, origin: request.origin)
        let people = try await AccountDirectory.load(services.identity)
        let mayManage = place.scope == .private
        let participants = (record.participants ?? []).map { participant -> [String: Any] in
            let user = participant.userIdentity?.userRecordName
            let known = people.account(user)
            var item: [String: Any] = [
                "name": people.name(user), "email": known?.email ?? participant.userIdentity?.lookupInfo?.emailAddress ?? "",
                "role": participant.type?.rawValue ?? "", "permission": participant.permission?.rawValue ?? "",
                "status": participant.acceptanceStatus?.rawValue ?? "", "participant": participant.participantId ?? "",
                "manageable": mayManage && participant.type != .owner && participant.acceptanceStatus != .removed,
                "choices": SharePermission.choices.map { choice in
                    ["value": choice["value"] ?? "", "label": choice["label"] ?? "", "selected": choice["value"] == participant.permission?.rawValue]
                },
            ]
            if participant.acceptanceStatus == .invited, let user, record.shortGUID != nil {
                var theirs = place
                theirs.user = user
                item["acceptPath"] = "\(theirs.accountPath)/accept"
            }
            return item
        }
        var values: [String: Any] = [
            "name": name, "shareName": name, "publicPermission": record.publicPermission?.rawValue ?? "NONE",
            "participants": participants, "mayManage": mayManage, "changePath": "\(place.databasePath)/share",
            "zoneField": place.zone ?? "", "ownerField": place.owner ?? "", "back": place.sharePath(name),
            "permissions": SharePermission.choices, "recordHref": place.recordPath(name),
        ]
        // Sections render for any present string: only what the share has.
        if let title = record.fields?[ShareNames.titleField].map(FieldText.display) { values["title"] = title }
        if let url = record.url { values["url"] = url }
        if let guid = record.shortGUID { values["shortGUID"] = guid }
        var chrome = BrowseRoutes(console: console).crumbs(request, place, account: account)
        chrome.crumbs.append((label: place.zone ?? "", href: place.zonePath()))
        return console.views.page("share", title: "Share \(name)", values, chrome: chrome)
    }

    private func change(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        _ = try await BrowseRoutes(console: console).requireAccount(place)
        guard place.scope == .private else { throw ConsoleFailure("Shares are managed from the owner's private database.") }
        let form = request.form
        switch form["operation"] {
        case "create":
            return try await create(form, place: place, origin: request.origin)
        case "stop":
            let name = try form.required("name", label: "the share")
            let share = try await lookup(name, place: place, origin: request.origin)
            try await RecordRoutes.modify(
                RecordOperation(.delete, Record(recordName: name, recordChangeTag: share.recordChangeTag)), place: place, services: services,
                origin: request.origin
            )
            return ("Stopped sharing: participants no longer see it.", place.zonePath())
        default:
            let name = try form.required("name", label: "the share")
            let share = try await lookup(name, place: place, origin: request.origin)
            var participants = Self.invitations(share.participants ?? [])
            let target = form["participant"]
            if form["operation"] == "remove" {
                guard let target, participants.contains(where: { $0.participantId == target }) else {
                    throw ConsoleFailure("That participant is not on the share.")
                }
                participants.removeAll { $0.participantId == target }
            } else if let target, let index = participants.firstIndex(where: { $0.participantId == target }) {
                participants[index].permission = SharePermission(rawValue: form["permission"] ?? "") ?? .readOnly
            } else {
                let email = try form.required("email", label: "the email to invite")
                participants.append(.invite(email: email, permission: SharePermission(rawValue: form["permission"] ?? "") ?? .readOnly))
            }
            var record = Record(recordName: name, recordType: ShareNames.recordType, recordChangeTag: share.recordChangeTag)
            record.participants = participants
            try await RecordRoutes.modify(RecordOperation(.update, record), place: place, services: services, origin: request.origin)
            return (form["operation"] == "remove" ? "Participant removed." : "Participants saved.", place.sharePath(name))
        }
    }

    /// Shares a record (a new hierarchy share) or the zone (its zone-wide share, made once), inviting one person.
    private func create(_ form: FormFields, place: Place, origin: String) async throws -> (notice: String, next: String) {
        let invitees = form["email"].map { [ShareParticipant.invite(email: $0, permission: SharePermission(rawValue: form["permission"] ?? "") ?? .readOnly)] } ?? []
        if let root = form["root"] {
            var share = Record(recordName: "Share-\(UUID().uuidString)", recordType: ShareNames.recordType, fields: [
                ShareNames.titleField: .string(root),
            ])
            share.forRecord = RecordPointer(recordName: root)
            share.participants = invitees
            let saved = try await RecordRoutes.modify(RecordOperation(.create, share), place: place, services: services, origin: origin)
            return ("Record \(root) shared.", place.sharePath(saved.recordName ?? ""))
        }
        let name = ShareNames.zoneWideShare
        if let existing = try? await lookup(name, place: place, origin: origin) {
            var record = Record(recordName: name, recordType: ShareNames.recordType, recordChangeTag: existing.recordChangeTag)
            record.participants = Self.invitations(existing.participants ?? []) + invitees
            try await RecordRoutes.modify(RecordOperation(.update, record), place: place, services: services, origin: origin)
            return ("Invited to the zone's share.", place.sharePath(name))
        }
        var share = Record(recordName: name, recordType: ShareNames.recordType, fields: [ShareNames.titleField: .string(place.zone ?? "")])
        share.participants = invitees
        try await RecordRoutes.modify(RecordOperation(.create, share), place: place, services: services, origin: origin)
        return ("Zone \(place.zone ?? "") shared.", place.sharePath(name))
    }

    /// A share's current participants (not the owner, not those removed) as an update sends them
    /// back: by participant ID, with how they were found (an invitee without an account has only an email).
    static func invitations(_ participants: [ShareParticipant]) -> [ShareParticipant] {
        participants.filter { $0.type != .owner && $0.acceptanceStatus != .removed }.map { participant in
            ShareParticipant(
                participantId: participant.participantId,
                userIdentity: participant.userIdentity.map { UserIdentity(userRecordName: $0.userRecordName, lookupInfo: $0.lookupInfo) },
                type: participant.type, permission: participant.permission
            )
        }
    }

    private func lookup(_ name: String, place: Place, origin: String) async throws -> Record {
        let found = try await services.records.lookup(
            LookupRecordsRequest(records: [.init(recordName: name)], zoneID: place.zoneID), scope: place.scope(origin: origin)
        )
        if let error = found.records.first?.error { throw ConsoleFailure(error) }
        guard let record = found.records.first?.record else { throw ConsoleFailure("Share \(name) was not found.") }
        return record
    }
}
