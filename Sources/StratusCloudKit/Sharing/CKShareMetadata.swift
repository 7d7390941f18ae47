import Foundation
import StratusModel

extension CKShare {
    /// What a share URL leads to, as the person opening it sees it: the share, its root record,
    /// its owner, and the opener's role, permission and acceptance status.
    public final class Metadata: NSObject, @unchecked Sendable {
        public let containerIdentifier: String
        public let share: CKShare
        /// The root record's ID (`nil` for a zone-wide share).
        public let hierarchicalRootRecordID: CKRecord.ID?
        /// The root record, when it was asked for.
        public let rootRecord: CKRecord?
        public let participantRole: ParticipantRole
        public let participantStatus: ParticipantAcceptanceStatus
        public let participantPermission: ParticipantPermission
        public let ownerIdentity: CKUserIdentity
        /// The short GUID the metadata was found by (what accepting sends back).
        let shortGUID: String

        @available(*, deprecated, renamed: "hierarchicalRootRecordID")
        public var rootRecordID: CKRecord.ID { hierarchicalRootRecordID ?? CKRecord.ID(recordName: share.recordID.recordName, zoneID: share.recordID.zoneID) }

        init(wire: ShareMetadata) {
            let zoneID = CKRecordZone.ID(wire: wire.zoneID)
            containerIdentifier = wire.containerIdentifier
            let record = CKRecord.from(wire: wire.share, zoneID: zoneID)
            share = record as? CKShare ?? CKShare(recordZoneID: zoneID)
            hierarchicalRootRecordID = wire.rootRecordName.map { CKRecord.ID(recordName: $0, zoneID: zoneID) }
            rootRecord = wire.rootRecord.map { CKRecord.from(wire: $0, zoneID: zoneID) }
            participantRole = ParticipantRole(wire: wire.participantRole)
            participantStatus = ParticipantAcceptanceStatus(wire: wire.participantStatus)
            participantPermission = ParticipantPermission(wire: wire.participantPermission)
            ownerIdentity = CKUserIdentity(wire: wire.ownerIdentity)
            shortGUID = wire.shortGUID.value
        }
    }
}

extension CKContainer {
    /// A participant for the account with this email (one not yet on the server is invited by email).
    public func shareParticipant(forEmailAddress emailAddress: String) async throws -> CKShare.Participant {
        let found = try await post("public/users/lookup/email", LookupUsersRequest(users: [.init(emailAddress: emailAddress)]), as: UsersResponse.self)
        let recordID = found.users.first.map { CKRecord.ID(recordName: $0.userRecordName) }
        let identity = CKUserIdentity(
            userRecordID: recordID, lookupInfo: CKUserIdentity.LookupInfo(emailAddress: emailAddress, phoneNumber: nil, userRecordID: recordID),
            nameComponents: nil
        )
        return CKShare.Participant(userIdentity: identity, role: .privateUser, permission: .readOnly, acceptanceStatus: .unknown, participantID: nil)
    }

    /// A participant for the account with this user record ID.
    /// - Throws: `unknownItem` when no discoverable account has it.
    public func shareParticipant(forUserRecordID userRecordID: CKRecord.ID) async throws -> CKShare.Participant {
        let found = try await post(
            "public/users/lookup/id", LookupUsersRequest(users: [.init(userRecordName: userRecordID.recordName)]), as: UsersResponse.self
        )
        guard let user = found.users.first else { throw CKError(.unknownItem, "no account \(userRecordID.recordName)") }
        let id = CKRecord.ID(recordName: user.userRecordName)
        let identity = CKUserIdentity(userRecordID: id, lookupInfo: CKUserIdentity.LookupInfo(userRecordID: id), nameComponents: nil)
        return CKShare.Participant(userIdentity: identity, role: .privateUser, permission: .readOnly, acceptanceStatus: .unknown, participantID: nil)
    }

    /// The metadata of the share behind a share URL.
    public func shareMetadata(for url: URL, shouldFetchRootRecord: Bool = false) async throws -> CKShare.Metadata {
        guard let result = try await shareMetadatas(for: [url], shouldFetchRootRecord: shouldFetchRootRecord)[url] else {
            throw CKError(.internalError, "records/resolve answered nothing for \(url)")
        }
        return try result.get()
    }

    /// The metadata of the shares behind share URLs, each metadata or its error.
    public func shareMetadatas(for urls: [URL], shouldFetchRootRecord: Bool = false) async throws -> [URL: Result<CKShare.Metadata, any Error>] {
        let request = ShortGUIDsRequest(shortGUIDs: urls.map { ShortGUIDRequest(value: Self.shortGUID(of: $0), shouldFetchRootRecord: shouldFetchRootRecord) })
        let response = try await post("public/records/resolve", request, as: ShareMetadataResponse.self)
        var results: [URL: Result<CKShare.Metadata, any Error>] = [:]
        for (url, entry) in zip(urls, response.results) {
            switch entry {
            case .success(let metadata): results[url] = .success(CKShare.Metadata(wire: metadata))
            case .failure(let error): results[url] = .failure(CKError(error))
            }
        }
        return results
    }

    /// Accepts a share: its zone then appears in the caller's shared database. Answers the share.
    @discardableResult
    public func accept(_ metadata: CKShare.Metadata) async throws -> CKShare {
        guard let result = try await accept([metadata])[metadata.shortGUID] else { throw CKError(.internalError, "records/accept answered nothing") }
        return try result.get()
    }

    /// Accepts shares, each answered by its short GUID.
    func accept(_ metadatas: [CKShare.Metadata]) async throws -> [String: Result<CKShare, any Error>] {
        let request = ShortGUIDsRequest(shortGUIDs: metadatas.map { ShortGUIDRequest(value: $0.shortGUID) })
        let response = try await post("public/records/accept", request, as: ShareMetadataResponse.self)
        var results: [String: Result<CKShare, any Error>] = [:]
        for (metadata, entry) in zip(metadatas, response.results) {
            switch entry {
            case .success(let accepted): results[metadata.shortGUID] = .success(CKShare.Metadata(wire: accepted).share)
            case .failure(let error): results[metadata.shortGUID] = .failure(CKError(error))
            }
        }
        return results
    }

    /// The short GUID of a share URL: its last path component.
    static func shortGUID(of url: URL) -> String { url.lastPathComponent }
}
