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
    public let containerIdentifier: String?
    /// The connection requests go through; `nil` when the environment named no credentials
    /// (then ``accountStatus()`` is `.noAccount` and every call fails with `notAuthenticated`).
    public let connection: StratusConnection?
    let transport: CKWSTransport?
    private let failure: String?
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

    /// The app's default container, as the environment's account: the one `STRATUS_CONTAINER`
    /// names, else the default container of the dev credentials file `STRATUS_CREDENTIALS` names,
    /// else the dev server's `iCloud.com.example.TravelJournal`.
    public static func `default`() -> CKContainer {
        CKContainer(identifier: defaultIdentifier(ProcessInfo.processInfo.environment))
    }

    /// The default container's identifier in an environment (``default()``).
    static func defaultIdentifier(_ variables: [String: String]) -> String {
        if let named = variables["STRATUS_CONTAINER"], !named.isEmpty { return named }
        if let file = variables["STRATUS_CREDENTIALS"], !file.isEmpty,
            let data = try? Data(contentsOf: URL(fileURLWithPath: file)),
            let credentials = try? JSONDecoder().decode(DevCredentials.self, from: data)
        {
            return credentials.container
        }
        return "iCloud.com.example.TravelJournal"
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
        do { return try await transport.post(path, body, as: Response.self) } catch { throw refused(CKError(error)) }
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
