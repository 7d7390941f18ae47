import AsyncHTTPClient
import StratusCloudKit
import StratusModel

/// A CloudKit container on a Stratus (or CKWS) server: its three databases and the calls that
/// belong to no database (the caller's identity, share metadata, accepting shares).
public struct CloudContainer: Sendable {
    public let identifier: String
    public let environment: ContainerEnvironment
    let transport: CloudTransport

    /// - Parameters:
    ///   - serverURL: e.g. `http://127.0.0.1:8080`.
    ///   - deviceID: sent as `X-Stratus-Device-ID`, stamped on the records this client writes.
    public init(
        identifier: String, environment: ContainerEnvironment = .development, serverURL: String,
        credentials: CloudCredentials, deviceID: String? = nil, client: HTTPClient = .shared
    ) {
        self.identifier = identifier
        self.environment = environment
        self.transport = CloudTransport(
            baseURL: "\(serverURL)/database/1/\(identifier)/\(environment.rawValue)", credentials: credentials,
            deviceID: deviceID, client: client
        )
    }

    public var privateCloudDatabase: CloudDatabase { CloudDatabase(scope: .private, transport: transport) }
    public var sharedCloudDatabase: CloudDatabase { CloudDatabase(scope: .shared, transport: transport) }
    public var publicCloudDatabase: CloudDatabase { CloudDatabase(scope: .public, transport: transport) }

    /// The signed-in user's record name (`users/caller`).
    public func userRecordName() async throws(CloudError) -> String {
        let identity = try await transport.get("public/users/caller", as: UserIdentity.self)
        guard let name = identity.userRecordName else { throw CloudError(.notAuthenticated, "no signed-in user") }
        return name
    }

    /// Share metadata for share URLs or short GUIDs (`CKFetchShareMetadataOperation`).
    public func shareMetadata(for shortGUIDs: [String], fetchRootRecord: Bool = true) async throws(CloudError) -> [Result<ShareMetadata, CloudError>] {
        try await shortGUIDCall("public/records/resolve", shortGUIDs, fetchRootRecord: fetchRootRecord)
    }

    /// Accepts shares (`CKAcceptSharesOperation`); their zones then appear in the shared database.
    public func acceptShares(_ shortGUIDs: [String]) async throws(CloudError) -> [Result<ShareMetadata, CloudError>] {
        try await shortGUIDCall("public/records/accept", shortGUIDs, fetchRootRecord: false)
    }

    /// The short GUID of a share URL (its last path component), or the argument itself.
    public static func shortGUID(of url: String) -> String {
        url.split(separator: "/").last.map(String.init) ?? url
    }

    private func shortGUIDCall(_ path: String, _ guids: [String], fetchRootRecord: Bool) async throws(CloudError) -> [Result<ShareMetadata, CloudError>] {
        let request = ShortGUIDsRequest(shortGUIDs: guids.map {
            ShortGUIDRequest(value: CloudContainer.shortGUID(of: $0), shouldFetchRootRecord: fetchRootRecord)
        })
        let response = try await transport.post(path, request, as: ShareMetadataResponse.self)
        return response.results.map { result in
            switch result {
            case .success(let metadata): .success(metadata)
            case .failure(let error):
                .failure(CloudError(serverErrorCode: error.serverErrorCode, reason: error.reason, retryAfter: nil, ckErrorCode: nil, serverRecord: nil))
            }
        }
    }
}

/// An empty JSON object body.
struct EmptyRequest: Codable, Sendable {}
