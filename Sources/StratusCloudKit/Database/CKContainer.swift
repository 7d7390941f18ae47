import AsyncHTTPClient
import Foundation
import StratusModel
import Synchronization

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
public final class CKContainer: NSObject, Sendable {
    /// The container's identifier; `nil` for a ``default()`` container the environment named none for.
    public let containerIdentifier: String?
    /// The connection requests go through; `nil` when the environment named no credentials
    /// (then ``accountStatus()`` is `.noAccount` and every call fails with `notAuthenticated`).
    public let connection: StratusConnection?
    let transport: CKWSTransport?
    /// Why there is no transport: no credentials (`notAuthenticated`), or no container (`badContainer`).
    private let failure: CKError?
    private let memory = Mutex(Memory())

    /// The databases handed out (the same objects on every access, as Apple's) and the user the
    /// server last answered for (to post ``Notification.Name.CKAccountChanged`` when it changes).
    private struct Memory {
        var databases: [CKDatabase.Scope: Weak<CKDatabase>] = [:]
        var lastUser: String??
    }

    /// The container `identifier`, as the account the environment names.
    public convenience init(identifier: String) {
        do {
            self.init(identifier: identifier, connection: try StratusConnection.fromEnvironment())
        } catch {
            self.init(identifier: identifier, connection: nil, failure: CKError(.notAuthenticated, "no Stratus credentials: \(error)"))
        }
    }

    /// The container `identifier` as the account `connection` names, with the container's own
    /// tokens when the connection has them (one made from a dev credentials file has them for
    /// every container the server seeded).
    public convenience init(identifier: String, connection: StratusConnection) {
        self.init(identifier: identifier, connection: connection, failure: nil)
    }

    /// The container `identifier` connected to no server: every call fails with `failure`
    /// (a test's engine reaches its fake through ``CKSyncEngine/Configuration/syncDatabase``
    /// instead).
    package convenience init(unconnectedIdentifier identifier: String, failure: CKError = CKError(.notAuthenticated, "connected to no server")) {
        self.init(identifier: identifier, connection: nil, failure: failure)
    }

    private init(identifier: String?, connection: StratusConnection?, failure: CKError?) {
        self.containerIdentifier = identifier
        self.connection = connection
        self.transport = identifier.flatMap { identifier in connection?.transport(container: identifier) }
        self.failure = failure
    }

    /// The app's default container, as the environment's account: the one `STRATUS_CONTAINER`
    /// names, else the default container of the dev credentials file `STRATUS_CREDENTIALS` names.
    /// With neither (as an app without a CloudKit container), every call fails with
    /// `badContainer`, saying what to set.
    public static func `default`() -> CKContainer {
        defaultContainer(ProcessInfo.processInfo.environment)
    }

    /// The default container an environment names (``default()``).
    static func defaultContainer(_ variables: [String: String]) -> CKContainer {
        do {
            let identifier = try defaultIdentifier(variables)
            do {
                return CKContainer(identifier: identifier, connection: try StratusConnection.fromEnvironment(variables))
            } catch {
                return CKContainer(identifier: identifier, connection: nil, failure: CKError(.notAuthenticated, "no Stratus credentials: \(error)"))
            }
        } catch {
            return CKContainer(identifier: nil, connection: nil, failure: CKError(.badContainer, "\(error)"))
        }
    }

    /// The default container's identifier in an environment (``default()``).
    /// - Throws: ``StratusConnectionError`` saying what is missing when the environment names
    ///   none, or the credentials file cannot be read.
    static func defaultIdentifier(_ variables: [String: String]) throws(StratusConnectionError) -> String {
        if let named = variables["STRATUS_CONTAINER"], !named.isEmpty { return named }
        guard let file = variables["STRATUS_CREDENTIALS"], !file.isEmpty else {
            throw StratusConnectionError(
                "no default container: set STRATUS_CONTAINER to the container's identifier, or STRATUS_CREDENTIALS to a credentials "
                    + "file (`stratus serve --dev` writes one; `stratus exec -- CMD` sets both)"
            )
        }
        do {
            return try JSONDecoder().decode(DevCredentials.self, from: Data(contentsOf: URL(fileURLWithPath: file))).container
        } catch {
            throw StratusConnectionError("no default container: cannot read the credentials file STRATUS_CREDENTIALS names (\(file)): \(error)")
        }
    }

    public var privateCloudDatabase: CKDatabase { database(with: .private) }
    public var sharedCloudDatabase: CKDatabase { database(with: .shared) }
    public var publicCloudDatabase: CKDatabase { database(with: .public) }

    /// The database of this scope: the same object as long as anyone holds it (a database keeps
    /// its container, so the container only remembers it weakly).
    public func database(with scope: CKDatabase.Scope) -> CKDatabase {
        memory.withLock { memory in
            if let database = memory.databases[scope]?.object { return database }
            let database = CKDatabase(container: self, scope: scope)
            memory.databases[scope] = Weak(database)
            return database
        }
    }

    /// Notes the user the server answered for (`nil`: none signed in) and posts
    /// ``Notification.Name/CKAccountChanged`` when it differs from the one before.
    func noteAccount(_ userRecordName: String?) {
        let changed = memory.withLock { memory -> Bool in
            defer { memory.lastUser = .some(userRecordName) }
            guard case .some(let previous) = memory.lastUser else { return false }
            return previous != userRecordName
        }
        if changed { NotificationCenter.default.post(name: .CKAccountChanged, object: self) }
    }

    /// What names this container within the process, whichever `CKContainer` object stands for
    /// it (`CKContainer.default()` made twice is one container): its server, identifier,
    /// environment and account. What the process remembers for a container is kept under it.
    var processKey: String {
        "\(transport?.baseURL ?? containerIdentifier ?? "")|\(transport?.webAuthToken ?? "")"
    }

    /// The transport, or `notAuthenticated` when there are no credentials (`badContainer` when
    /// there is no container).
    func requireTransport() throws(CKError) -> CKWSTransport {
        guard let transport else { throw failure ?? CKError(.notAuthenticated, "no Stratus credentials: none given") }
        return transport
    }

    /// A request through the container's transport (asking for the transport's extensions and
    /// `extra`), failures as ``CKError``.
    func post<Body: Encodable, Response: Decodable>(
        _ path: String, _ body: Body, as: Response.Type, asking extra: WireExtensions = []
    ) async throws(CKError) -> Response {
        let transport = try requireTransport()
        do { return try await transport.post(path, body, as: Response.self, asking: extra) } catch { throw refused(CKError(error)) }
    }

    func get<Response: Decodable>(_ path: String, as: Response.Type) async throws(CKError) -> Response {
        let transport = try requireTransport()
        do { return try await transport.get(path, as: Response.self) } catch { throw refused(CKError(error)) }
    }

    /// A request's failure; one the server refused for want of a signed-in user (a revoked or
    /// expired token) notes that no one is signed in now.
    private func refused(_ error: CKError) -> CKError {
        if error.code == .notAuthenticated { noteAccount(nil) }
        return error
    }

    // MARK: - The account

    /// `.available` when an account is signed in, `.noAccount` when none is (or its token was
    /// revoked or expired).
    public func accountStatus() async throws -> CKAccountStatus {
        // No container is no account question: the app's configuration is wrong.
        if let failure, failure.code == .badContainer { throw failure }
        guard transport?.webAuthToken != nil else {
            noteAccount(nil)
            return .noAccount
        }
        do {
            let identity = try await get("public/users/caller", as: UserIdentity.self)
            noteAccount(identity.userRecordName)
            return .available
        } catch {
            guard error.code == .notAuthenticated else { throw error }
            return .noAccount
        }
    }

    /// The signed-in user's record ID.
    public func userRecordID() async throws -> CKRecord.ID {
        let identity = try await get("public/users/caller", as: UserIdentity.self)
        noteAccount(identity.userRecordName)
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

/// A weak reference, for caches that must not keep what they hold alive.
struct Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}

extension Weak: Sendable where Object: Sendable {}
