import StratusStore
import GRDB

/// The store's schema history. Migrations are append-only once merged: never edit a shipped one.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-records-and-zones") { db in
            try db.execute(
                sql: """
                    CREATE TABLE change_sequence (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        value INTEGER NOT NULL
                    );
                    INSERT INTO change_sequence (id, value) VALUES (1, 0);

                    CREATE TABLE zones (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        owner TEXT NOT NULL,
                        name TEXT NOT NULL,
                        atomic INTEGER NOT NULL,
                        created_seq INTEGER NOT NULL,
                        last_seq INTEGER NOT NULL,
                        deleted_seq INTEGER,
                        compacted_below_seq INTEGER NOT NULL DEFAULT 0,
                        feed_seq INTEGER NOT NULL
                    );
                    CREATE UNIQUE INDEX zones_live ON zones (container, environment, scope, owner, name)
                        WHERE deleted_seq IS NULL;
                    CREATE INDEX zones_feed ON zones (container, environment, scope, owner, feed_seq);

                    CREATE TABLE records (
                        zone_id INTEGER NOT NULL REFERENCES zones (id),
                        record_name TEXT NOT NULL,
                        record_type TEXT NOT NULL,
                        fields TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        created_by TEXT,
                        created_device TEXT,
                        modified_at INTEGER NOT NULL,
                        modified_by TEXT,
                        modified_device TEXT,
                        parent_name TEXT,
                        share_name TEXT,
                        short_guid TEXT,
                        seq INTEGER NOT NULL,
                        deleted INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (zone_id, record_name)
                    ) WITHOUT ROWID;
                    CREATE UNIQUE INDEX records_changes ON records (zone_id, seq);

                    CREATE TABLE schema_fields (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        record_type TEXT NOT NULL,
                        field_name TEXT NOT NULL,
                        field_type TEXT NOT NULL,
                        PRIMARY KEY (container, environment, record_type, field_name)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v1-identity") { db in
            try db.execute(
                sql: """
                    CREATE TABLE containers (
                        identifier TEXT PRIMARY KEY,
                        created_at INTEGER NOT NULL
                    );
                    CREATE TABLE api_tokens (
                        token_hash TEXT PRIMARY KEY,
                        container TEXT NOT NULL REFERENCES containers (identifier),
                        environment TEXT NOT NULL,
                        created_at INTEGER NOT NULL
                    );
                    CREATE TABLE accounts (
                        user_record_name TEXT PRIMARY KEY,
                        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        given_name TEXT,
                        family_name TEXT,
                        created_at INTEGER NOT NULL
                    );
                    CREATE TABLE web_auth_tokens (
                        token_hash TEXT PRIMARY KEY,
                        user_record_name TEXT NOT NULL REFERENCES accounts (user_record_name),
                        container TEXT NOT NULL,
                        expires_at INTEGER,
                        created_at INTEGER NOT NULL
                    );
                    CREATE TABLE admin_tokens (
                        token_hash TEXT PRIMARY KEY,
                        created_at INTEGER NOT NULL
                    );
                    """
            )
        }
        migrator.registerMigration("v2-account-discoverability") { db in
            try db.execute(sql: "ALTER TABLE accounts ADD COLUMN discoverable INTEGER NOT NULL DEFAULT 1")
        }
        migrator.registerMigration("v3-schema-indexes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE schema_indexes (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        record_type TEXT NOT NULL,
                        field_name TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        PRIMARY KEY (container, environment, record_type, field_name, kind)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v4-sharing") { db in
            try db.execute(
                sql: """
                    CREATE INDEX records_children ON records (zone_id, parent_name) WHERE parent_name IS NOT NULL;

                    CREATE TABLE shares (
                        zone_id INTEGER NOT NULL REFERENCES zones (id),
                        record_name TEXT NOT NULL,
                        root_name TEXT,
                        short_guid TEXT NOT NULL UNIQUE,
                        public_permission TEXT NOT NULL,
                        PRIMARY KEY (zone_id, record_name)
                    ) WITHOUT ROWID;

                    CREATE TABLE share_participants (
                        zone_id INTEGER NOT NULL,
                        share_name TEXT NOT NULL,
                        participant_id TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        user_record_name TEXT,
                        email TEXT COLLATE NOCASE,
                        role TEXT NOT NULL,
                        permission TEXT NOT NULL,
                        status TEXT NOT NULL,
                        PRIMARY KEY (zone_id, share_name, participant_id),
                        FOREIGN KEY (zone_id, share_name) REFERENCES shares (zone_id, record_name) ON DELETE CASCADE
                    ) WITHOUT ROWID;
                    CREATE INDEX share_participants_user ON share_participants (user_record_name, zone_id);

                    CREATE TABLE shared_zone_feed (
                        user_record_name TEXT NOT NULL,
                        zone_id INTEGER NOT NULL REFERENCES zones (id),
                        seq INTEGER NOT NULL,
                        visible INTEGER NOT NULL,
                        PRIMARY KEY (user_record_name, zone_id)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v5-delete-self-references") { db in
            // Which records point at which with DELETE_SELF, so deleting a target finds its
            // sources without reading the zone; filled from the records already stored.
            try db.execute(
                sql: """
                    CREATE TABLE record_references (
                        zone_id INTEGER NOT NULL,
                        target_name TEXT NOT NULL,
                        source_name TEXT NOT NULL,
                        PRIMARY KEY (zone_id, target_name, source_name)
                    ) WITHOUT ROWID;
                    CREATE INDEX record_references_source ON record_references (zone_id, source_name);

                    INSERT OR IGNORE INTO record_references (zone_id, target_name, source_name)
                    SELECT r.zone_id, json_extract(t.value, '$.recordName'), r.record_name
                    FROM records r, json_tree(r.fields) t
                    WHERE r.deleted = 0 AND t.type = 'object' AND json_extract(t.value, '$.action') = 'DELETE_SELF'
                        AND json_extract(t.value, '$.recordName') IS NOT NULL;
                    """
            )
        }
        migrator.registerMigration("v6-share-coverage") { db in
            // When a record entered or left what a hierarchy share covers (moved under or out of
            // its root), so participants' feeds carry the records that entered and tombstones
            // for those that left.
            try db.execute(
                sql: """
                    CREATE TABLE share_coverage (
                        zone_id INTEGER NOT NULL,
                        share_name TEXT NOT NULL,
                        record_name TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        PRIMARY KEY (zone_id, share_name, record_name)
                    ) WITHOUT ROWID;
                    CREATE INDEX share_coverage_seq ON share_coverage (zone_id, seq);
                    """
            )
        }
        migrator.registerMigration("v7-push") { db in
            // Subscriptions by owner and database; push tokens; one notification feed per
            // recipient (account), read by position, with the position below which it was trimmed.
            try db.execute(
                sql: """
                    CREATE TABLE subscriptions (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        user_record_name TEXT NOT NULL,
                        subscription_id TEXT NOT NULL,
                        body TEXT NOT NULL,
                        PRIMARY KEY (container, environment, scope, user_record_name, subscription_id)
                    ) WITHOUT ROWID;

                    CREATE TABLE push_tokens (
                        token TEXT PRIMARY KEY,
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        apns_environment TEXT NOT NULL,
                        user_record_name TEXT,
                        device_id TEXT,
                        start_position INTEGER NOT NULL
                    ) WITHOUT ROWID;

                    CREATE TABLE notifications (
                        position INTEGER PRIMARY KEY AUTOINCREMENT,
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        recipient TEXT NOT NULL,
                        origin_device TEXT,
                        created_at INTEGER NOT NULL,
                        body TEXT NOT NULL
                    );
                    CREATE INDEX notifications_feed ON notifications (recipient, container, environment, position);

                    CREATE TABLE notification_horizons (
                        recipient TEXT NOT NULL,
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        pruned_through INTEGER NOT NULL,
                        PRIMARY KEY (recipient, container, environment)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v8-account-events") { db in
            try db.execute(
                sql: """
                    ALTER TABLE zones ADD COLUMN deleted_reason TEXT;
                    ALTER TABLE web_auth_tokens ADD COLUMN revoked_at INTEGER;
                    CREATE TABLE quotas (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        owner TEXT NOT NULL,
                        bytes INTEGER NOT NULL,
                        used INTEGER NOT NULL,
                        PRIMARY KEY (container, environment, owner)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v9-assets") { db in
            try db.execute(
                sql: """
                    CREATE TABLE store_secrets (
                        name TEXT PRIMARY KEY,
                        value BLOB NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE blobs (
                        checksum TEXT PRIMARY KEY,
                        size INTEGER NOT NULL,
                        stored_at INTEGER NOT NULL,
                        unreferenced_since INTEGER
                    ) WITHOUT ROWID;
                    CREATE TABLE asset_uploads (
                        upload_id TEXT PRIMARY KEY,
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        owner TEXT NOT NULL,
                        checksum TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        created_at INTEGER NOT NULL,
                        claimed_zone INTEGER,
                        claimed_record TEXT,
                        claimed_field TEXT
                    ) WITHOUT ROWID;
                    CREATE INDEX asset_uploads_age ON asset_uploads (created_at);
                    CREATE TABLE record_assets (
                        zone_id INTEGER NOT NULL,
                        record_name TEXT NOT NULL,
                        checksum TEXT NOT NULL,
                        PRIMARY KEY (zone_id, record_name, checksum)
                    ) WITHOUT ROWID;
                    CREATE INDEX record_assets_blob ON record_assets (checksum);
                    """
            )
        }
        migrator.registerMigration("v10-api-token-settings") { db in
            try db.execute(
                sql: """
                    ALTER TABLE api_tokens ADD COLUMN allowed_origins TEXT NOT NULL DEFAULT '';
                    ALTER TABLE api_tokens ADD COLUMN sign_in_callback_url TEXT;
                    """
            )
        }
        migrator.registerMigration("v11-keys-horizons-passwords") { db in
            // What `v8-account-events` gained after it landed (a database that ran it as first
            // landed lacks them; one that ran the edited version has them): each added only where
            // it is missing.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS server_keys (
                        key_id TEXT PRIMARY KEY,
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        public_key_pem TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        revoked_at INTEGER
                    );
                    CREATE TABLE IF NOT EXISTS database_horizons (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        owner TEXT NOT NULL,
                        below_seq INTEGER NOT NULL,
                        PRIMARY KEY (container, environment, scope, owner)
                    ) WITHOUT ROWID;
                    """
            )
            if try !db.columns(in: "accounts").contains(where: { $0.name == "password_hash" }) {
                try db.execute(sql: "ALTER TABLE accounts ADD COLUMN password_hash TEXT")
            }
        }
        migrator.registerMigration("v12-activity") { db in
            // The console's timeline, kept across restarts (bounded by the writer).
            try db.execute(
                sql: """
                    CREATE TABLE activity (
                        position INTEGER PRIMARY KEY AUTOINCREMENT,
                        body TEXT NOT NULL
                    );
                    """
            )
        }
        migrator.registerMigration("v13-schema-documents") { db in
            // The CloudKit Schema Language document imported into each container environment
            // (security roles, grants, encryption), and who holds each role it makes.
            try db.execute(
                sql: """
                    CREATE TABLE schema_documents (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        document TEXT NOT NULL,
                        PRIMARY KEY (container, environment)
                    ) WITHOUT ROWID;
                    CREATE TABLE role_members (
                        container TEXT NOT NULL,
                        role TEXT NOT NULL,
                        user_record_name TEXT NOT NULL,
                        PRIMARY KEY (container, role, user_record_name)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v14-client-change-tokens") { db in
            // The client change token each device last sent with a modify that changed a zone,
            // by the zone's incarnation (a zone made again starts with none).
            try db.execute(
                sql: """
                    CREATE TABLE client_change_tokens (
                        zone_id INTEGER NOT NULL,
                        client TEXT NOT NULL,
                        token TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        PRIMARY KEY (zone_id, client)
                    ) WITHOUT ROWID;
                    """
            )
        }
        return migrator
    }
}
