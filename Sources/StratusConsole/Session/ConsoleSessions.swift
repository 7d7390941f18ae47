import StratusModel
import Synchronization

/// One signed-in console: who may act (the admin token, kept here and only here), the token its
/// forms must echo, and a message for the next page.
struct ConsoleSession: Sendable {
    /// The cookie's value: 32 random bytes, hex.
    var id: String
    /// Every form carries it back; a POST without it is refused (with SameSite=Strict, defence in depth).
    var formToken: String
    /// Re-checked on every request, so a token the server no longer knows ends the session.
    var adminToken: String
    var lastSeen: ContinuousClock.Instant
    /// What the last action did, shown once on the page it leads to.
    var notice: Notice?
    /// The fields of a form the server refused, shown again (once) so nothing is typed twice.
    var refusedForm: [String: String]?
    /// Push tokens the console made to watch an account's database, by `user/container/environment`.
    var watchTokens: [String: String] = [:]
    /// Database subscriptions the console added to accounts that had none: removed at sign-out.
    var addedSubscriptions: Set<AddedSubscription> = []

    /// A subscription the console added in an account's database.
    struct AddedSubscription: Sendable, Hashable {
        var user: String
        var container: String
        var environment: ContainerEnvironment
        var scope: DatabaseScope
        var subscriptionID: String
    }

    /// A one-time message: a success or a readable failure.
    struct Notice: Sendable {
        var text: String
        var isError: Bool
    }
}

/// The console's sessions, in memory (a restart signs everyone out): at most ``capacity``, each
/// ending after ``idleLimit`` without a request. Each call holds the lock for a dictionary access.
final class ConsoleSessions: Sendable {
    static let cookieName = "stratus-console"
    let capacity: Int
    let idleLimit: Duration
    private let sessions = Mutex<[String: ConsoleSession]>([:])

    init(capacity: Int = 1_000, idleLimit: Duration = .seconds(12 * 3600)) {
        self.capacity = capacity
        self.idleLimit = idleLimit
    }

    /// Opens a session for a verified admin token; the oldest goes when the table is full.
    /// The admin token a development server on this machine signs in with at one click.
    private let localSignIn = Mutex<String?>(nil)

    /// Offers one-click sign-in, with `adminToken`, to browsers on the server's own machine.
    func offerLocalSignIn(adminToken: String) { localSignIn.withLock { $0 = adminToken } }

    /// The one-click sign-in's token, when offered.
    var localSignInToken: String? { localSignIn.withLock { $0 } }

    func open(adminToken: String) -> ConsoleSession {
        let session = ConsoleSession(
            id: Self.randomToken(), formToken: Self.randomToken(), adminToken: adminToken, lastSeen: .now
        )
        sessions.withLock { sessions in
            if sessions.count >= capacity, let oldest = sessions.values.min(by: { $0.lastSeen < $1.lastSeen }) {
                sessions[oldest.id] = nil
            }
            sessions[session.id] = session
        }
        return session
    }

    /// The live session with this id (its clock restarted), or `nil`.
    func session(_ id: String?) -> ConsoleSession? {
        guard let id else { return nil }
        let now = ContinuousClock.now
        return sessions.withLock { sessions in
            guard var session = sessions[id] else { return nil }
            guard now - session.lastSeen < idleLimit else {
                sessions[id] = nil
                return nil
            }
            session.lastSeen = now
            sessions[id] = session
            return session
        }
    }

    /// Takes the session's pending notice.
    func takeNotice(_ id: String) -> ConsoleSession.Notice? {
        sessions.withLock { sessions in
            defer { sessions[id]?.notice = nil }
            return sessions[id]?.notice
        }
    }

    func setNotice(_ notice: ConsoleSession.Notice, for id: String) {
        sessions.withLock { $0[id]?.notice = notice }
    }

    /// Keeps a refused form's fields for the page the refusal leads to.
    func setRefusedForm(_ fields: [String: String], for id: String) {
        sessions.withLock { $0[id]?.refusedForm = fields }
    }

    /// Takes the refused form's fields, if any.
    func takeRefusedForm(_ id: String) -> [String: String]? {
        sessions.withLock { sessions in
            defer { sessions[id]?.refusedForm = nil }
            return sessions[id]?.refusedForm
        }
    }

    func watchToken(_ key: String, of id: String) -> String? {
        sessions.withLock { $0[id]?.watchTokens[key] }
    }

    func setWatchToken(_ token: String, for key: String, of id: String) {
        sessions.withLock { $0[id]?.watchTokens[key] = token }
    }

    func addSubscription(_ added: ConsoleSession.AddedSubscription, of id: String) {
        sessions.withLock { _ = $0[id]?.addedSubscriptions.insert(added) }
    }

    /// Ends a session; answers it, so what it added can be taken away.
    @discardableResult
    func close(_ id: String) -> ConsoleSession? {
        sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// 32 random bytes from the system's generator, hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Hex.encode(bytes)
    }
}
