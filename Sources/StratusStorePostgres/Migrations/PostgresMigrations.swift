import PostgresNIO
import StratusStore

/// The PostgreSQL store's schema, as numbered migrations. Every instance runs them at start in
/// one transaction under an advisory lock, so instances starting together apply each once.
enum PostgresMigrations {
    /// The advisory lock key migrations hold (any constant unique to Stratus).
    static let lockKey: Int64 = 0x5354_5241_5455_53

    static let all: [(name: String, statements: [String])] = [
        ("p1-identity", [
            """
            CREATE TABLE containers (
                identifier TEXT PRIMARY KEY,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE api_tokens (
                token_hash TEXT PRIMARY KEY,
                container TEXT NOT NULL REFERENCES containers (identifier),
                environment TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE accounts (
                user_record_name TEXT PRIMARY KEY,
                email TEXT NOT NULL,
                given_name TEXT,
                family_name TEXT,
                discoverable BOOLEAN NOT NULL DEFAULT TRUE,
                password_hash TEXT,
                created_at BIGINT NOT NULL
            )
            """,
            // Emails are unique and found without regard to case (SQLite: COLLATE NOCASE).
            "CREATE UNIQUE INDEX accounts_email ON accounts (lower(email))",
            """
            CREATE TABLE web_auth_tokens (
                token_hash TEXT PRIMARY KEY,
                user_record_name TEXT NOT NULL REFERENCES accounts (user_record_name),
                container TEXT NOT NULL,
                expires_at BIGINT,
                revoked_at BIGINT,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE admin_tokens (
                token_hash TEXT PRIMARY KEY,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE server_keys (
                key_id TEXT PRIMARY KEY,
                container TEXT NOT NULL,
                environment TEXT NOT NULL,
                public_key_pem TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
        ]),
        ("p2-records-shares-push-assets", recordsSharesPushAssets),
        ("p3-api-token-settings", [
            "ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS allowed_origins TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS sign_in_callback_url TEXT",
        ]),
        // What every instance shares beyond the data: fault rules (SharedSettings). Added to p2
        // after it landed, so a database that ran p2 as edited has it already.
        ("p4-shared-settings", [
            "CREATE TABLE IF NOT EXISTS shared_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL)",
        ]),
        // The console's timeline, kept across restarts (bounded by the writer); every instance appends.
        ("p5-activity", [
            "CREATE TABLE IF NOT EXISTS activity (position BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body TEXT NOT NULL)",
        ]),
        // The CloudKit Schema Language document imported into each container environment
        // (security roles, grants, encryption), and who holds each role it makes.
        ("p6-schema-documents", [
            """
            CREATE TABLE IF NOT EXISTS schema_documents (
                container TEXT NOT NULL,
                environment TEXT NOT NULL,
                document TEXT NOT NULL,
                PRIMARY KEY (container, environment)
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS role_members (
                container TEXT NOT NULL,
                role TEXT NOT NULL,
                user_record_name TEXT NOT NULL,
                PRIMARY KEY (container, role, user_record_name)
            )
            """,
        ]),
        // The client change token each device last sent with a modify that changed a zone, by
        // the zone's incarnation (a zone made again starts with none).
        ("p7-client-change-tokens", [
            """
            CREATE TABLE IF NOT EXISTS client_change_tokens (
                zone_id BIGINT NOT NULL,
                client TEXT NOT NULL,
                token TEXT NOT NULL,
                seq BIGINT NOT NULL,
                PRIMARY KEY (zone_id, client)
            )
            """,
        ]),
    ]

    /// Applies the migrations this database lacks; answers their names.
    @discardableResult
    static func migrate(_ store: PostgresStore) async throws(StoreError) -> [String] {
        let logger = store.logger
        return try await store.withTransaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS stratus_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)", logger: logger
            )
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM stratus_migrations", logger: logger).decode(String.self) {
                applied.insert(name)
            }
            var ran: [String] = []
            for migration in all where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                let now = PostgresStore.nowMilliseconds
                try await connection.query("INSERT INTO stratus_migrations (name, applied_at) VALUES (\(migration.name), \(now))", logger: logger)
                ran.append(migration.name)
            }
            return ran
        }
    }
}
