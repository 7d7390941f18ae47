import Foundation
import StratusModel
import StratusStore

/// records/resolve and records/accept: what a share's short GUID leads to, and joining it.
///
/// A private share (publicPermission NONE) resolves and accepts only for the accounts it
/// invites (by user record name or email); a public one for any signed-in account, which joins
/// as PUBLIC_USER with the share's public permission.
public struct ShareService: Sendable {
    let store: any RecordStore & ShareStore & AccountStore
    let configuration: CoreConfiguration
    let push: PushDispatcher
    let assets: AssetService

    /// The metadata of each share: the share, its zone and root, and the caller's own role,
    /// permission and status. Changes nothing.
    /// - Throws: ``CoreError``: 421 without a signed-in user, `BAD_REQUEST` over the item limit.
    public func resolve(_ request: ShortGUIDsRequest, scope: RequestScope) async throws(CoreError) -> ShareMetadataResponse {
        let (user, email) = try await signedIn(scope, count: request.shortGUIDs.count)
        let links = try await assets.links(for: scope)
        var results: [ShareMetadataResult] = []
        do {
            for item in request.shortGUIDs {
                guard let share = try await store.share(shortGUID: item.value) else {
                    results.append(.failure(error(.notFound, "no share has the short GUID '\(item.value)'", item)))
                    continue
                }
                guard let role = ShareService.participation(in: share, user: user, email: email) else {
                    results.append(.failure(error(.accessDenied, "this share is not shared with you", item)))
                    continue
                }
                results.append(.success(try await metadata(share, item: item, caller: user, participation: role, links: links)))
            }
        } catch {
            throw CoreError(error)
        }
        return ShareMetadataResponse(results: results)
    }

    /// Accepts each share for the caller, who then sees its zone in their shared database.
    /// Accepting twice changes nothing.
    /// - Throws: ``CoreError``: 421 without a signed-in user, `BAD_REQUEST` over the item limit.
    public func accept(_ request: ShortGUIDsRequest, scope: RequestScope) async throws(CoreError) -> ShareMetadataResponse {
        let (user, email) = try await signedIn(scope, count: request.shortGUIDs.count)
        let links = try await assets.links(for: scope)
        var results: [ShareMetadataResult] = []
        do {
            for item in request.shortGUIDs {
                let acceptor = Acceptor(
                    userRecordName: user, email: email, timestamp: configuration.now(),
                    participantLimit: configuration.limits.participantsPerShare
                )
                switch try await store.accept(shortGUID: item.value, by: acceptor) {
                case .accepted(let share):
                    push.publish(CommitEvent(
                        zone: share.zone, author: user, originDevice: scope.deviceID, previousSeq: share.record.seq - 1,
                        touched: [share.record.name]
                    ))
                    let role = ShareService.participation(in: share, user: user, email: email) ?? (.unknown, .none, .unknown)
                    results.append(.success(try await metadata(share, item: item, caller: user, participation: role, links: links)))
                case .notFound:
                    results.append(.failure(error(.notFound, "no share has the short GUID '\(item.value)'", item)))
                case .notInvited:
                    results.append(.failure(error(.accessDenied, "this share is not shared with you", item)))
                case .tooManyParticipants:
                    let limit = configuration.limits.participantsPerShare
                    results.append(.failure(error(.badRequest, "the share has its maximum of \(limit) participants", item)))
                }
            }
        } catch {
            throw CoreError(error)
        }
        return ShareMetadataResponse(results: results)
    }

    typealias Participation = (role: ParticipantRole, permission: SharePermission, status: ParticipantAcceptanceStatus)

    /// The caller's role, permission and status in a share, or `nil` when it is not for them.
    static func participation(in share: StoredShare, user: String, email: String?) -> Participation? {
        if share.owner == user { return (.owner, .readWrite, .accepted) }
        if let index = share.invitationIndex(user: user, email: email), share.participants[index].status != .removed {
            let invited = share.participants[index]
            return (invited.role, invited.permission, invited.status)
        }
        guard share.publicPermission != .none else { return nil }
        return (.publicUser, share.publicPermission, .pending)
    }

    private func signedIn(_ scope: RequestScope, count: Int) async throws(CoreError) -> (user: String, email: String?) {
        guard let user = scope.caller.userRecordName else { throw configuration.authenticationRequired(scope) }
        try configuration.checkCount(count, of: "shortGUIDs")
        do {
            return (user, try await store.account(userRecordName: user)?.email)
        } catch {
            throw CoreError(error)
        }
    }

    /// What a share URL shows before anyone signs in: title, owner, container, how to accept.
    /// - Throws: `NOT_FOUND` for a short GUID no live share has.
    public func page(shortGUID: String) async throws(CoreError) -> SharePage {
        let found: StoredShare?
        let owner: StoredAccount?
        do {
            found = try await store.share(shortGUID: shortGUID)
            owner = if let found { try await store.account(userRecordName: found.owner) } else { nil }
        } catch {
            throw CoreError(error)
        }
        guard let share = found else { throw CoreError(.notFound, "no share has the short GUID '\(shortGUID)'") }
        let name = [owner?.givenName, owner?.familyName].compactMap { $0 }.joined(separator: " ")
        let database = share.zone.database
        let title: String? = if case .string(let text)? = share.record.fields[ShareNames.titleField]?.value { text } else { nil }
        return SharePage(
            shortGUID: shortGUID, url: configuration.shareURLPrefix + shortGUID, title: title,
            ownerName: name.isEmpty ? owner?.email ?? share.owner : name, containerIdentifier: database.container,
            environment: database.environment, publicPermission: share.publicPermission, zoneWide: share.rootName == nil,
            accept: "POST /database/1/\(database.container)/\(database.environment.rawValue)/shared/records/accept "
                + "{\"shortGUIDs\":[{\"value\":\"\(shortGUID)\"}]} (StratusKit: acceptShareInvitations(from:))"
        )
    }

    private func metadata(
        _ share: StoredShare, item: ShortGUIDRequest, caller: String, participation: Participation, links: AssetLinks
    ) async throws(StoreError) -> ShareMetadata {
        let renderer = try await ShareRenderer.make([share], caller: caller, store: store, urlPrefix: configuration.shareURLPrefix)
        let zoneID = ZoneID(zoneName: share.zone.name, ownerRecordName: share.owner)
        let mapper = RecordMapper(zoneID: zoneID, shares: renderer, links: links)
        var rootRecord: Record?
        if item.shouldFetchRootRecord == true, let root = share.rootName, participation.permission.mayRead {
            rootRecord = try await store.records(named: [root], in: share.zone).first?
                .map { mapper.record($0, desiredKeys: item.rootRecordDesiredKeys) }
        }
        return ShareMetadata(
            shortGUID: ShortGUIDEcho(value: item.value, shouldFetchRootRecord: item.shouldFetchRootRecord),
            containerIdentifier: share.zone.database.container, environment: share.zone.database.environment,
            databaseScope: share.owner == caller ? "PRIVATE" : "SHARED", zoneID: zoneID,
            share: mapper.record(share.record, desiredKeys: nil), rootRecordName: share.rootName, rootRecord: rootRecord,
            ownerIdentity: renderer.identity(of: share.owner), participantRole: participation.role,
            participantPermission: participation.permission, participantStatus: participation.status
        )
    }

    private func error(_ code: ServerErrorCode, _ reason: String, _ item: ShortGUIDRequest) -> ShortGUIDError {
        ShortGUIDError(
            shortGUID: ShortGUIDEcho(value: item.value, shouldFetchRootRecord: item.shouldFetchRootRecord),
            serverErrorCode: code, reason: reason, uuid: ErrorUUID.make()
        )
    }
}
