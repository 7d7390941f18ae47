/// The second migration: zones, records and everything that hangs off them (schema, shares,
/// references, coverage, push, quotas, assets). The same tables as the SQLite store's `v1`–`v9`,
/// in PostgreSQL's types: `BIGINT` positions and times, `BOOLEAN` flags, `JSONB` field values (so
/// schema indexes are expression indexes over them) and `BYTEA` secrets. `records.fields_size` keeps
/// the byte length of the fields as the client's JSON encoded them, what quotas count (SQLite
/// counts its stored text; `jsonb` keeps no text).
extension PostgresMigrations {
    static let recordsSharesPushAssets: [String] = [
        // One row: the global change sequence. Every write transaction updates it first, so its
        // row lock orders writers across instances and values are never reused.
        "CREATE TABLE change_sequence (id INT PRIMARY KEY CHECK (id = 1), value BIGINT NOT NULL)",
        "INSERT INTO change_sequence (id, value) VALUES (1, 0)",
        """
        CREATE TABLE zones (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            scope TEXT NOT NULL,
            owner TEXT NOT NULL,
            name TEXT NOT NULL,
            atomic BOOLEAN NOT NULL,
            created_seq BIGINT NOT NULL,
            last_seq BIGINT NOT NULL,
            deleted_seq BIGINT,
            deleted_reason TEXT,
            compacted_below_seq BIGINT NOT NULL DEFAULT 0,
            feed_seq BIGINT NOT NULL
        )
        """,
        "CREATE UNIQUE INDEX zones_live ON zones (container, environment, scope, owner, name) WHERE deleted_seq IS NULL",
        "CREATE INDEX zones_feed ON zones (container, environment, scope, owner, feed_seq)",
        """
        CREATE TABLE records (
            zone_id BIGINT NOT NULL REFERENCES zones (id),
            record_name TEXT NOT NULL,
            record_type TEXT NOT NULL,
            fields JSONB NOT NULL,
            fields_size BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            created_by TEXT,
            created_device TEXT,
            modified_at BIGINT NOT NULL,
            modified_by TEXT,
            modified_device TEXT,
            parent_name TEXT,
            share_name TEXT,
            short_guid TEXT,
            seq BIGINT NOT NULL,
            deleted BOOLEAN NOT NULL DEFAULT FALSE,
            PRIMARY KEY (zone_id, record_name)
        )
        """,
        "CREATE UNIQUE INDEX records_changes ON records (zone_id, seq)",
        "CREATE INDEX records_children ON records (zone_id, parent_name) WHERE parent_name IS NOT NULL",
        """
        CREATE TABLE schema_fields (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            record_type TEXT NOT NULL,
            field_name TEXT NOT NULL,
            field_type TEXT NOT NULL,
            PRIMARY KEY (container, environment, record_type, field_name)
        )
        """,
        """
        CREATE TABLE schema_indexes (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            record_type TEXT NOT NULL,
            field_name TEXT NOT NULL,
            kind TEXT NOT NULL,
            PRIMARY KEY (container, environment, record_type, field_name, kind)
        )
        """,
        """
        CREATE TABLE shares (
            zone_id BIGINT NOT NULL REFERENCES zones (id),
            record_name TEXT NOT NULL,
            root_name TEXT,
            short_guid TEXT NOT NULL UNIQUE,
            public_permission TEXT NOT NULL,
            PRIMARY KEY (zone_id, record_name)
        )
        """,
        """
        CREATE TABLE share_participants (
            zone_id BIGINT NOT NULL,
            share_name TEXT NOT NULL,
            participant_id TEXT NOT NULL,
            position INT NOT NULL,
            user_record_name TEXT,
            email TEXT,
            role TEXT NOT NULL,
            permission TEXT NOT NULL,
            status TEXT NOT NULL,
            PRIMARY KEY (zone_id, share_name, participant_id),
            FOREIGN KEY (zone_id, share_name) REFERENCES shares (zone_id, record_name) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX share_participants_user ON share_participants (user_record_name, zone_id)",
        """
        CREATE TABLE shared_zone_feed (
            user_record_name TEXT NOT NULL,
            zone_id BIGINT NOT NULL REFERENCES zones (id),
            seq BIGINT NOT NULL,
            visible BOOLEAN NOT NULL,
            PRIMARY KEY (user_record_name, zone_id)
        )
        """,
        """
        CREATE TABLE record_references (
            zone_id BIGINT NOT NULL,
            target_name TEXT NOT NULL,
            source_name TEXT NOT NULL,
            PRIMARY KEY (zone_id, target_name, source_name)
        )
        """,
        "CREATE INDEX record_references_source ON record_references (zone_id, source_name)",
        """
        CREATE TABLE share_coverage (
            zone_id BIGINT NOT NULL,
            share_name TEXT NOT NULL,
            record_name TEXT NOT NULL,
            seq BIGINT NOT NULL,
            PRIMARY KEY (zone_id, share_name, record_name)
        )
        """,
        "CREATE INDEX share_coverage_seq ON share_coverage (zone_id, seq)",
        """
        CREATE TABLE subscriptions (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            scope TEXT NOT NULL,
            user_record_name TEXT NOT NULL,
            subscription_id TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (container, environment, scope, user_record_name, subscription_id)
        )
        """,
        """
        CREATE TABLE push_tokens (
            token TEXT PRIMARY KEY,
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            apns_environment TEXT NOT NULL,
            user_record_name TEXT,
            device_id TEXT,
            start_position BIGINT NOT NULL
        )
        """,
        // Notification positions come from this row (locked by the appending transaction), not
        // from a sequence: positions then become visible in order, so a reader's cursor never
        // skips a notification that commits late.
        "CREATE TABLE notification_sequence (id INT PRIMARY KEY CHECK (id = 1), value BIGINT NOT NULL)",
        "INSERT INTO notification_sequence (id, value) VALUES (1, 0)",
        """
        CREATE TABLE notifications (
            position BIGINT PRIMARY KEY,
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            recipient TEXT NOT NULL,
            origin_device TEXT,
            created_at BIGINT NOT NULL,
            body TEXT NOT NULL
        )
        """,
        "CREATE INDEX notifications_feed ON notifications (recipient, container, environment, position)",
        """
        CREATE TABLE notification_horizons (
            recipient TEXT NOT NULL,
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            pruned_through BIGINT NOT NULL,
            PRIMARY KEY (recipient, container, environment)
        )
        """,
        """
        CREATE TABLE quotas (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            owner TEXT NOT NULL,
            bytes BIGINT NOT NULL,
            used BIGINT NOT NULL,
            PRIMARY KEY (container, environment, owner)
        )
        """,
        """
        CREATE TABLE database_horizons (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            scope TEXT NOT NULL,
            owner TEXT NOT NULL,
            below_seq BIGINT NOT NULL,
            PRIMARY KEY (container, environment, scope, owner)
        )
        """,
        "CREATE TABLE store_secrets (name TEXT PRIMARY KEY, value BYTEA NOT NULL)",
        """
        CREATE TABLE blobs (
            checksum TEXT PRIMARY KEY,
            size BIGINT NOT NULL,
            stored_at BIGINT NOT NULL,
            unreferenced_since BIGINT
        )
        """,
        """
        CREATE TABLE asset_uploads (
            upload_id TEXT PRIMARY KEY,
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            owner TEXT NOT NULL,
            checksum TEXT NOT NULL,
            size BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            claimed_zone BIGINT,
            claimed_record TEXT,
            claimed_field TEXT
        )
        """,
        "CREATE INDEX asset_uploads_age ON asset_uploads (created_at)",
        """
        CREATE TABLE record_assets (
            zone_id BIGINT NOT NULL,
            record_name TEXT NOT NULL,
            checksum TEXT NOT NULL,
            PRIMARY KEY (zone_id, record_name, checksum)
        )
        """,
        "CREATE INDEX record_assets_blob ON record_assets (checksum)",
    ]
}
