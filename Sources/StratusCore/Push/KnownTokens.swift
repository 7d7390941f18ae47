import StratusStore
import Synchronization

/// Push tokens by their value, as last read from the store.
final class KnownTokens: Sendable {
    private let tokens = Mutex<[String: StoredPushToken]>([:])

    func token(_ token: String) -> StoredPushToken? { tokens.withLock { $0[token] } }

    func remember(_ token: StoredPushToken) {
        tokens.withLock { tokens in
            if tokens.count >= 200_000 { tokens.removeAll(keepingCapacity: true) }
            tokens[token.token] = token
        }
    }

    func forget(_ token: String) {
        _ = tokens.withLock { $0.removeValue(forKey: token) }
    }

    /// Forgets every token (another instance lost track of some).
    func forgetAll() {
        tokens.withLock { $0 = [:] }
    }
}
