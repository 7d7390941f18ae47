import AsyncHTTPClient
import Foundation
import StratusModel

/// Whether an account is signed in to the container.
public enum CKAccountStatus: Int, Sendable, Hashable {
    case couldNotDetermine = 0
    case available = 1
    case restricted = 2
    case noAccount = 3
    case temporarilyUnavailable = 4
}

/// A CloudKit container on a Stratus server: its three databases, the signed-in account, share
/// participants and metadata, and accepting shares. Its account is the connection's: the
/// environment's (``StratusConnection/fromEnvironment()``) unless one is given.
public final class CKContainer: NSObject, @unchecked Sendable {
    public let containerIdentifier: String?
    /// The connection requests go through; `nil` when the environment named no credentials
    /// (then ``accountStatus()`` is `.noAccount` and every call fails with `notAuthenticated`).
    public let connection: StratusConnection?
    let transport: CKWSTransport?
    private let failure: String?

    /// The container `identifier`, as the account the environment names.
    public convenience init(identifier: String) {
        do {
            self.init(identifier: identifier, connection: try StratusConnection.fromEnvironment())
        } catch {
            self.init(identifier: identifier, connection: nil, failure: "\(error)")
        }
    }

    /// The container `identifier` as the account `connection` names, with the container's own
    /// tokens when the connection has them (one made from a dev credentials file has them for
    /// every container the server seeded).
    public convenience init(identifier: String, connection: StratusConnection) {
        self.init(identifier: identifier, connection: connection, failure: nil)
    }

    private init(identifier: String, connection: StratusConnection?, failure: String?) {
        self.containerIdentifier = identifier
        self.connection = connection
        self.transport = connection?.transport(container: identifier)
        self.failure = failure
    }

    /// The app's default container: `STRATUS_CONTAINER`, else the dev server's
    /// `iCloud.com.example.TravelJournal`, as the environment's account.
    public static func `default`() -> CKContainer {
        CKContainer(identifier: ProcessInfo.processInfo.environment["STRATUS_CONTAINER"] ?? "iCloud.com.example.TravelJournal")
    }

    public var privateCloudDatabase: CKDatabase { CKDatabase(container: self, scope: .private) }
    public var sharedCloudDatabase: CKDatabase { CKDatabase(container: self, scope: .shared) }
    public var publicCloudDatabase: CKDatabase { CKDatabase(container: self, scope: .public) }

    public func database(with scope: CKDatabase.Scope) -> CKDatabase { CKDatabase(container: self, scope: scope) }

    /// The transport, or `notAuthenticated` when there are no credentials.
    func requireTransport() throws(CKError) -> CKWSTransport {
        guard let transport else {
            throw CKError(.notAuthenticated, "no Stratus credentials: \(failure ?? "none given")")
        }
        return transport
    }

    /// A request through the container's transport, failures as ``CKError``.
    func post<Body: Encodable, Response: Decodable>(_ path: String, _ body: Body, as: Response.Type) async throws(CKError) -> Response {
        let transport = try requireTransport()
        do { return try await transport.post(path, body, as: Response.self) } catch { throw CKError(error) }
    }

    func get<Response: Decodable>(_ path: String, as: Response.Type) async throws(CKError) -> Response {
        let transport = try requireTransport()
        do { return try await transport.get(path, as: Response.self) } catch { throw CKError(error) }
    }

    // MARK: - The account

    /// `.available` when an account is signed in, `.noAccount` when none is (or its token was
    /// revoked or expired).
    public func accountStatus() async throws -> CKAccountStatus {
        guard transport?.webAuthToken != nil else { return .noAccount }
        do {
            _ = try await get("public/users/caller", as: UserIdentity.self)
            return .available
        } catch {
            guard error.code == .notAuthenticated else { throw error }
            return .noAccount
        }
    }

    /// The signed-in user's record ID.
    public func userRecordID() async throws -> CKRecord.ID {
        let identity = try await get("public/users/caller", as: UserIdentity.self)
        guard let name = identity.userRecordName else { throw CKError(.notAuthenticated, "no signed-in user") }
        return CKRecord.ID(recordName: name)
    }

    public func accountStatus(completionHandler: @escaping @Sendable (CKAccountStatus, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await accountStatus(), nil) } catch { completionHandler(.couldNotDetermine, error) }
        }
    }

    public func fetchUserRecordID(completionHandler: @escaping @Sendable (CKRecord.ID?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await userRecordID(), nil) } catch { completionHandler(nil, error) }
        }
    }
}
