import Foundation
import StratusModel

extension CKShare {
    /// What a share URL leads to, as the person opening it sees it.
    public typealias Metadata = CKShareMetadata
}

/// What a share URL leads to, as the person opening it sees it: the share, its root record,
/// its owner, and the opener's role, permission and acceptance status (`CKShare.Metadata`;
/// top-level, as its Objective-C name, for archives). Archived under Apple's keys; an archive of
/// Apple's framework decodes, and accepting it works once its share has a URL of this server.
public final class CKShareMetadata: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let containerIdentifier: String
    public let share: CKShare
    /// The root record's ID (`nil` for a zone-wide share).
    public let hierarchicalRootRecordID: CKRecord.ID?
    /// The root record, when it was asked for.
    public let rootRecord: CKRecord?
    public let participantRole: CKShare.ParticipantRole
    public let participantStatus: CKShare.ParticipantAcceptanceStatus
    public let participantPermission: CKShare.ParticipantPermission
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
        participantRole = CKShare.ParticipantRole(wire: wire.participantRole)
        participantStatus = CKShare.ParticipantAcceptanceStatus(wire: wire.participantStatus)
        participantPermission = CKShare.ParticipantPermission(wire: wire.participantPermission)
        ownerIdentity = CKUserIdentity(wire: wire.ownerIdentity)
        shortGUID = wire.shortGUID.value
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: - Coding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(ArchivedContainerID(containerIdentifier: containerIdentifier), forKey: "ContainerID")
        coder.encode(share, forKey: "Share")
        if let rootRecord { coder.encode(rootRecord, forKey: "RootRecord") }
        if let hierarchicalRootRecordID { coder.encode(hierarchicalRootRecordID, forKey: "RootRecordID") }
        coder.encode(Int64(participantRole.rawValue), forKey: "ParticipantType")
        coder.encode(Int64(participantStatus.rawValue), forKey: "ParticipantStatus")
        coder.encode(Int64(participantPermission.rawValue), forKey: "ParticipantPermission")
        coder.encode(ownerIdentity, forKey: "OwnerIdentity")
        coder.encode(shortGUID as NSString, forKey: "StratusShortGUID")
    }

    public init?(coder: NSCoder) {
        guard let share = coder.object(CKShare.self, "Share") else { return nil }
        self.share = share
        containerIdentifier = coder.object(ArchivedContainerID.self, "ContainerID")?.containerIdentifier ?? ""
        rootRecord = coder.object(CKRecord.self, "RootRecord")
        hierarchicalRootRecordID = coder.object(CKRecord.ID.self, "RootRecordID")
        participantRole = CKShare.ParticipantRole(rawValue: coder.int("ParticipantType") ?? 0) ?? .unknown
        participantStatus = CKShare.ParticipantAcceptanceStatus(rawValue: coder.int("ParticipantStatus") ?? 0) ?? .unknown
        participantPermission = CKShare.ParticipantPermission(rawValue: coder.int("ParticipantPermission") ?? 0) ?? .unknown
        ownerIdentity = coder.object(CKUserIdentity.self, "OwnerIdentity") ?? share.owner.userIdentity
        shortGUID = coder.string("StratusShortGUID") ?? share.url.map(CKContainer.shortGUID(of:)) ?? ""
    }
}

extension CKContainer {
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
        guard let result = try await accept([metadata])[metadata] else { throw CKError(.internalError, "records/accept answered nothing") }
        return try result.get()
    }

    /// Accepts shares in one request: each share, or why it could not be accepted, by its metadata.
    public func accept(_ metadatas: [CKShare.Metadata]) async throws -> [CKShare.Metadata: Result<CKShare, any Error>] {
        let request = ShortGUIDsRequest(shortGUIDs: metadatas.map { ShortGUIDRequest(value: $0.shortGUID) })
        let response = try await post("public/records/accept", request, as: ShareMetadataResponse.self)
        var results: [CKShare.Metadata: Result<CKShare, any Error>] = [:]
        for (metadata, entry) in zip(metadatas, response.results) {
            switch entry {
            case .success(let accepted): results[metadata] = .success(CKShare.Metadata(wire: accepted).share)
            case .failure(let error): results[metadata] = .failure(CKError(error))
            }
        }
        return results
    }

    /// The short GUID of a share URL: its last path component.
    static func shortGUID(of url: URL) -> String { url.lastPathComponent }
}
