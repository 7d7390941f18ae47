import GRDB
import StratusModel
import StratusStore

extension SQLiteStore {
    public func createContainer(_ identifier: String) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO containers (identifier, created_at) VALUES (?, ?)",
                arguments: [identifier, SQLiteStore.nowMilliseconds]
            )
        }
    }

    public func containerExists(_ identifier: String) async throws(StoreError) -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM containers WHERE identifier = ?", arguments: [identifier]) ?? false
        }
    }

    public func containers(limit: Int) async throws(StoreError) -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM containers ORDER BY identifier LIMIT ?", arguments: [limit])
        }
    }

    public func addAPIToken(hash: String, container: String, environment: ContainerEnvironment) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO api_tokens (token_hash, container, environment, created_at) VALUES (?, ?, ?, ?)",
                arguments: [hash, container, environment.rawValue, SQLiteStore.nowMilliseconds]
            )
        }
    }

    public func apiToken(hash: String) async throws(StoreError) -> StoredAPIToken? {
        try await read { db in try Self.apiToken(hash: hash, in: db) }
    }

    public func setAPITokenSettings(_ settings: APITokenSettings, hash: String) async throws(StoreError) -> StoredAPIToken? {
        try await write { db in
            try db.execute(
                sql: "UPDATE api_tokens SET allowed_origins = ?, sign_in_callback_url = ? WHERE token_hash = ?",
                arguments: [APITokenSettings.joined(settings.allowedOrigins), settings.signInCallbackURL, hash]
            )
            return try Self.apiToken(hash: hash, in: db)
        }
    }

    private static func apiToken(hash: String, in db: Database) throws -> StoredAPIToken? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT container, environment, allowed_origins, sign_in_callback_url FROM api_tokens WHERE token_hash = ?"
                ),
                arguments: [hash]
            ),
            let environment = ContainerEnvironment(rawValue: row[1])
        else { return nil }
        let settings = APITokenSettings(allowedOrigins: APITokenSettings.split(row[2]), signInCallbackURL: row[3])
        return StoredAPIToken(container: row[0], environment: environment, settings: settings)
    }

    public func createAccount(_ account: StoredAccount) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO accounts (user_record_name, email, given_name, family_name, discoverable, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    account.userRecordName, account.email, account.givenName, account.familyName, account.discoverable,
                    SQLiteStore.nowMilliseconds,
                ]
            )
        }
    }

    public func account(userRecordName: String) async throws(StoreError) -> StoredAccount? {
        try await fetchAccount(where: "user_record_name = ?", userRecordName)
    }

    public func account(email: String) async throws(StoreError) -> StoredAccount? {
        try await fetchAccount(where: "email = ?", email)
    }

    public func accounts(userRecordNames: [String], emails: [String]) async throws(StoreError) -> [StoredAccount] {
        guard !userRecordNames.isEmpty || !emails.isEmpty else { return [] }
        return try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(SQLiteStore.accountColumns) FROM accounts
                        WHERE user_record_name IN (SELECT value FROM json_each(?)) OR email IN (SELECT value FROM json_each(?))
                        """
                ),
                arguments: [SQLiteStore.jsonArray(userRecordNames), SQLiteStore.jsonArray(emails)]
            ).map(SQLiteStore.account(from:))
        }
    }

    public func updateAccount(_ account: StoredAccount) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE accounts SET given_name = ?, family_name = ?, discoverable = ? WHERE user_record_name = ?",
                arguments: [account.givenName, account.familyName, account.discoverable, account.userRecordName]
            )
        }
    }

    public func discoverableAccounts(limit: Int) async throws(StoreError) -> [StoredAccount] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(SQLiteStore.accountColumns) FROM accounts WHERE discoverable = 1 ORDER BY email LIMIT ?",
                arguments: [limit]
            ).map(SQLiteStore.account(from:))
        }
    }

    public func allAccounts(limit: Int) async throws(StoreError) -> [StoredAccount] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(SQLiteStore.accountColumns) FROM accounts ORDER BY email LIMIT ?", arguments: [limit]
            ).map(SQLiteStore.account(from:))
        }
    }

    public func setPasswordHash(_ hash: String?, userRecordName: String) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE accounts SET password_hash = ? WHERE user_record_name = ?", arguments: [hash, userRecordName])
        }
    }

    public func passwordHash(userRecordName: String) async throws(StoreError) -> String? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT password_hash FROM accounts WHERE user_record_name = ?", arguments: [userRecordName])
        }
    }

    private static let accountColumns = "user_record_name, email, given_name, family_name, discoverable"

    private static func account(from row: Row) -> StoredAccount {
        StoredAccount(userRecordName: row[0], email: row[1], givenName: row[2], familyName: row[3], discoverable: row[4])
    }

    private func fetchAccount(where condition: String, _ value: String) async throws(StoreError) -> StoredAccount? {
        try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(SQLiteStore.accountColumns) FROM accounts WHERE \(condition)", arguments: [value]
            ).map(SQLiteStore.account(from:))
        }
    }

    public func addWebAuthToken(hash: String, token: StoredWebAuthToken) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO web_auth_tokens (token_hash, user_record_name, container, expires_at, created_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [hash, token.userRecordName, token.container, token.expiresAt, SQLiteStore.nowMilliseconds]
            )
        }
    }

    public func webAuthToken(hash: String) async throws(StoreError) -> StoredWebAuthToken? {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT user_record_name, container, expires_at, revoked_at IS NOT NULL FROM web_auth_tokens WHERE token_hash = ?"
                ),
                arguments: [hash]
            ).map { row in StoredWebAuthToken(userRecordName: row[0], container: row[1], expiresAt: row[2], revoked: row[3]) }
        }
    }

    public func revokeWebAuthToken(hash: String) async throws(StoreError) -> StoredWebAuthToken? {
        try await write { db in
            try db.execute(
                sql: "UPDATE web_auth_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE token_hash = ?",
                arguments: [SQLiteStore.nowMilliseconds, hash]
            )
            return try Row.fetchOne(
                db, sql: "SELECT user_record_name, container, expires_at FROM web_auth_tokens WHERE token_hash = ?", arguments: [hash]
            ).map { row in StoredWebAuthToken(userRecordName: row[0], container: row[1], expiresAt: row[2], revoked: true) }
        }
    }

    public func addServerKey(_ key: StoredServerKey) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO server_keys (key_id, container, environment, public_key_pem, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [key.keyID, key.container, key.environment.rawValue, key.publicKeyPEM, SQLiteStore.nowMilliseconds]
            )
        }
    }

    public func serverKey(id: String) async throws(StoreError) -> StoredServerKey? {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT key_id, container, environment, public_key_pem FROM server_keys WHERE key_id = ? AND revoked_at IS NULL"
                ),
                arguments: [id]
            ).flatMap { row in
                ContainerEnvironment(rawValue: row[2]).map { StoredServerKey(keyID: row[0], container: row[1], environment: $0, publicKeyPEM: row[3]) }
            }
        }
    }

    public func revokeServerKey(id: String) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE server_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL", arguments: [SQLiteStore.nowMilliseconds, id]
            )
            return db.changesCount > 0
        }
    }

    public func addAdminToken(hash: String) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO admin_tokens (token_hash, created_at) VALUES (?, ?)",
                arguments: [hash, SQLiteStore.nowMilliseconds]
            )
        }
    }

    public func adminTokenExists(hash: String) async throws(StoreError) -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM admin_tokens WHERE token_hash = ?", arguments: [hash]) ?? false
        }
    }
}
