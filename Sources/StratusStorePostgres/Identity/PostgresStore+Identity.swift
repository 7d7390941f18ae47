import PostgresNIO
import StratusModel
import StratusStore

/// Containers, accounts and credentials in PostgreSQL: the same rows and rules as the SQLite store.
extension PostgresStore: IdentityStore {
    public func migrate() async throws(StoreError) {
        try await PostgresMigrations.migrate(self)
    }

    public func createContainer(_ identifier: String) async throws(StoreError) {
        try await query("""
            INSERT INTO containers (identifier, created_at) VALUES (\(identifier), \(Self.nowMilliseconds))
            ON CONFLICT (identifier) DO NOTHING
            """)
    }

    public func containerExists(_ identifier: String) async throws(StoreError) -> Bool {
        try await first(query("SELECT 1::INT FROM containers WHERE identifier = \(identifier)")) { try $0.decode(Int32.self) } != nil
    }

    public func containers(limit: Int) async throws(StoreError) -> [String] {
        try await all(query("SELECT identifier FROM containers ORDER BY identifier LIMIT \(limit)")) { try $0.decode(String.self) }
    }

    public func addAPIToken(hash: String, container: String, environment: ContainerEnvironment) async throws(StoreError) {
        try await query("""
            INSERT INTO api_tokens (token_hash, container, environment, created_at)
            VALUES (\(hash), \(container), \(environment.rawValue), \(Self.nowMilliseconds))
            """)
    }

    public func apiToken(hash: String) async throws(StoreError) -> StoredAPIToken? {
        try await apiToken(query("""
            SELECT container, environment, allowed_origins, sign_in_callback_url FROM api_tokens WHERE token_hash = \(hash)
            """))
    }

    public func setAPITokenSettings(_ settings: APITokenSettings, hash: String) async throws(StoreError) -> StoredAPIToken? {
        try await apiToken(query("""
            UPDATE api_tokens SET allowed_origins = \(APITokenSettings.joined(settings.allowedOrigins)),
                sign_in_callback_url = \(settings.signInCallbackURL)
            WHERE token_hash = \(hash)
            RETURNING container, environment, allowed_origins, sign_in_callback_url
            """))
    }

    private func apiToken(_ rows: PostgresRowSequence) async throws(StoreError) -> StoredAPIToken? {
        let row = try await first(rows) { try $0.decode((String, String, String, String?).self) }
        return row.flatMap { container, environment, origins, callback in
            ContainerEnvironment(rawValue: environment).map {
                StoredAPIToken(
                    container: container, environment: $0,
                    settings: APITokenSettings(allowedOrigins: APITokenSettings.split(origins), signInCallbackURL: callback)
                )
            }
        }
    }

    // MARK: - Accounts

    public func createAccount(_ account: StoredAccount) async throws(StoreError) {
        try await query("""
            INSERT INTO accounts (user_record_name, email, given_name, family_name, discoverable, created_at)
            VALUES (\(account.userRecordName), \(account.email), \(account.givenName), \(account.familyName), \(account.discoverable),
                    \(Self.nowMilliseconds))
            """)
    }

    public func account(userRecordName: String) async throws(StoreError) -> StoredAccount? {
        try await accounts(query("SELECT \(unescaped: Self.accountColumns) FROM accounts WHERE user_record_name = \(userRecordName)")).first
    }

    public func account(email: String) async throws(StoreError) -> StoredAccount? {
        try await accounts(query("SELECT \(unescaped: Self.accountColumns) FROM accounts WHERE lower(email) = lower(\(email))")).first
    }

    public func accounts(userRecordNames: [String], emails: [String]) async throws(StoreError) -> [StoredAccount] {
        guard !userRecordNames.isEmpty || !emails.isEmpty else { return [] }
        let lowered = emails.map { $0.lowercased() }
        return try await accounts(query("""
            SELECT \(unescaped: Self.accountColumns) FROM accounts
            WHERE user_record_name = ANY(\(userRecordNames)) OR lower(email) = ANY(\(lowered))
            """))
    }

    public func updateAccount(_ account: StoredAccount) async throws(StoreError) {
        try await query("""
            UPDATE accounts SET given_name = \(account.givenName), family_name = \(account.familyName), discoverable = \(account.discoverable)
            WHERE user_record_name = \(account.userRecordName)
            """)
    }

    public func discoverableAccounts(limit: Int) async throws(StoreError) -> [StoredAccount] {
        try await accounts(query("SELECT \(unescaped: Self.accountColumns) FROM accounts WHERE discoverable ORDER BY lower(email) LIMIT \(limit)"))
    }

    public func allAccounts(limit: Int) async throws(StoreError) -> [StoredAccount] {
        try await accounts(query("SELECT \(unescaped: Self.accountColumns) FROM accounts ORDER BY lower(email) LIMIT \(limit)"))
    }

    public func setPasswordHash(_ hash: String?, userRecordName: String) async throws(StoreError) {
        try await query("UPDATE accounts SET password_hash = \(hash) WHERE user_record_name = \(userRecordName)")
    }

    public func passwordHash(userRecordName: String) async throws(StoreError) -> String? {
        try await first(query("SELECT password_hash FROM accounts WHERE user_record_name = \(userRecordName)")) { try $0.decode(String?.self) } ?? nil
    }

    private static let accountColumns = "user_record_name, email, given_name, family_name, discoverable"

    private func accounts(_ rows: PostgresRowSequence) async throws(StoreError) -> [StoredAccount] {
        try await all(rows) { try $0.decode((String, String, String?, String?, Bool).self) }.map { name, email, given, family, discoverable in
            StoredAccount(userRecordName: name, email: email, givenName: given, familyName: family, discoverable: discoverable)
        }
    }

    // MARK: - Web auth tokens, server keys, admin tokens

    public func addWebAuthToken(hash: String, token: StoredWebAuthToken) async throws(StoreError) {
        try await query("""
            INSERT INTO web_auth_tokens (token_hash, user_record_name, container, expires_at, created_at)
            VALUES (\(hash), \(token.userRecordName), \(token.container), \(token.expiresAt), \(Self.nowMilliseconds))
            """)
    }

    public func webAuthToken(hash: String) async throws(StoreError) -> StoredWebAuthToken? {
        let row = try await first(
            query("SELECT user_record_name, container, expires_at, revoked_at IS NOT NULL FROM web_auth_tokens WHERE token_hash = \(hash)")) { try $0.decode((String, String, Int64?, Bool).self) }
        return row.map { StoredWebAuthToken(userRecordName: $0.0, container: $0.1, expiresAt: $0.2, revoked: $0.3) }
    }

    public func revokeWebAuthToken(hash: String) async throws(StoreError) -> StoredWebAuthToken? {
        let row = try await first(
            query("""
                UPDATE web_auth_tokens SET revoked_at = coalesce(revoked_at, \(Self.nowMilliseconds)) WHERE token_hash = \(hash)
                RETURNING user_record_name, container, expires_at
                """)) { try $0.decode((String, String, Int64?).self) }
        return row.map { StoredWebAuthToken(userRecordName: $0.0, container: $0.1, expiresAt: $0.2, revoked: true) }
    }

    public func addServerKey(_ key: StoredServerKey) async throws(StoreError) {
        try await query("""
            INSERT INTO server_keys (key_id, container, environment, public_key_pem, created_at)
            VALUES (\(key.keyID), \(key.container), \(key.environment.rawValue), \(key.publicKeyPEM), \(Self.nowMilliseconds))
            """)
    }

    public func serverKey(id: String) async throws(StoreError) -> StoredServerKey? {
        let row = try await first(
            query("SELECT key_id, container, environment, public_key_pem FROM server_keys WHERE key_id = \(id) AND revoked_at IS NULL")) { try $0.decode((String, String, String, String).self) }
        return row.flatMap { keyID, container, environment, pem in
            ContainerEnvironment(rawValue: environment).map { StoredServerKey(keyID: keyID, container: container, environment: $0, publicKeyPEM: pem) }
        }
    }

    public func revokeServerKey(id: String) async throws(StoreError) -> Bool {
        try await first(
            query("UPDATE server_keys SET revoked_at = \(Self.nowMilliseconds) WHERE key_id = \(id) AND revoked_at IS NULL RETURNING key_id")) { try $0.decode(String.self) } != nil
    }

    public func addAdminToken(hash: String) async throws(StoreError) {
        try await query("""
            INSERT INTO admin_tokens (token_hash, created_at) VALUES (\(hash), \(Self.nowMilliseconds)) ON CONFLICT (token_hash) DO NOTHING
            """)
    }

    public func adminTokenExists(hash: String) async throws(StoreError) -> Bool {
        try await first(query("SELECT 1::INT FROM admin_tokens WHERE token_hash = \(hash)")) { try $0.decode(Int32.self) } != nil
    }
}
