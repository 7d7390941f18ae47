-- Made by make-fixtures.py from the PostgreSQL migrations at commit 7176834: do not edit.
CREATE TABLE containers (
                identifier TEXT PRIMARY KEY,
                created_at BIGINT NOT NULL
            );
CREATE TABLE api_tokens (
                token_hash TEXT PRIMARY KEY,
                container TEXT NOT NULL REFERENCES containers (identifier),
                environment TEXT NOT NULL,
                created_at BIGINT NOT NULL
            );
CREATE TABLE accounts (
                user_record_name TEXT PRIMARY KEY,
                email TEXT NOT NULL,
                given_name TEXT,
                family_name TEXT,
                discoverable BOOLEAN NOT NULL DEFAULT TRUE,
                password_hash TEXT,
                created_at BIGINT NOT NULL
            );
CREATE UNIQUE INDEX accounts_email ON accounts (lower(email));
CREATE TABLE web_auth_tokens (
                token_hash TEXT PRIMARY KEY,
                user_record_name TEXT NOT NULL REFERENCES accounts (user_record_name),
                container TEXT NOT NULL,
                expires_at BIGINT,
                revoked_at BIGINT,
                created_at BIGINT NOT NULL
            );
CREATE TABLE admin_tokens (
                token_hash TEXT PRIMARY KEY,
                created_at BIGINT NOT NULL
            );
CREATE TABLE server_keys (
                key_id TEXT PRIMARY KEY,
                container TEXT NOT NULL,
                environment TEXT NOT NULL,
                public_key_pem TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            );
CREATE TABLE change_sequence (id INT PRIMARY KEY CHECK (id = 1), value BIGINT NOT NULL);
INSERT INTO change_sequence (id, value) VALUES (1, 0);
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
        );
CREATE UNIQUE INDEX zones_live ON zones (container, environment, scope, owner, name) WHERE deleted_seq IS NULL;
CREATE INDEX zones_feed ON zones (container, environment, scope, owner, feed_seq);
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
        );
CREATE UNIQUE INDEX records_changes ON records (zone_id, seq);
CREATE INDEX records_children ON records (zone_id, parent_name) WHERE parent_name IS NOT NULL;
CREATE TABLE schema_fields (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            record_type TEXT NOT NULL,
            field_name TEXT NOT NULL,
            field_type TEXT NOT NULL,
            PRIMARY KEY (container, environment, record_type, field_name)
        );
CREATE TABLE schema_indexes (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            record_type TEXT NOT NULL,
            field_name TEXT NOT NULL,
            kind TEXT NOT NULL,
            PRIMARY KEY (container, environment, record_type, field_name, kind)
        );
CREATE TABLE shares (
            zone_id BIGINT NOT NULL REFERENCES zones (id),
            record_name TEXT NOT NULL,
            root_name TEXT,
            short_guid TEXT NOT NULL UNIQUE,
            public_permission TEXT NOT NULL,
            PRIMARY KEY (zone_id, record_name)
        );
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
        );
CREATE INDEX share_participants_user ON share_participants (user_record_name, zone_id);
CREATE TABLE shared_zone_feed (
            user_record_name TEXT NOT NULL,
            zone_id BIGINT NOT NULL REFERENCES zones (id),
            seq BIGINT NOT NULL,
            visible BOOLEAN NOT NULL,
            PRIMARY KEY (user_record_name, zone_id)
        );
CREATE TABLE record_references (
            zone_id BIGINT NOT NULL,
            target_name TEXT NOT NULL,
            source_name TEXT NOT NULL,
            PRIMARY KEY (zone_id, target_name, source_name)
        );
CREATE INDEX record_references_source ON record_references (zone_id, source_name);
CREATE TABLE share_coverage (
            zone_id BIGINT NOT NULL,
            share_name TEXT NOT NULL,
            record_name TEXT NOT NULL,
            seq BIGINT NOT NULL,
            PRIMARY KEY (zone_id, share_name, record_name)
        );
CREATE INDEX share_coverage_seq ON share_coverage (zone_id, seq);
CREATE TABLE subscriptions (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            scope TEXT NOT NULL,
            user_record_name TEXT NOT NULL,
            subscription_id TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (container, environment, scope, user_record_name, subscription_id)
        );
CREATE TABLE push_tokens (
            token TEXT PRIMARY KEY,
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            apns_environment TEXT NOT NULL,
            user_record_name TEXT,
            device_id TEXT,
            start_position BIGINT NOT NULL
        );
CREATE TABLE notification_sequence (id INT PRIMARY KEY CHECK (id = 1), value BIGINT NOT NULL);
INSERT INTO notification_sequence (id, value) VALUES (1, 0);
CREATE TABLE notifications (
            position BIGINT PRIMARY KEY,
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            recipient TEXT NOT NULL,
            origin_device TEXT,
            created_at BIGINT NOT NULL,
            body TEXT NOT NULL
        );
CREATE INDEX notifications_feed ON notifications (recipient, container, environment, position);
CREATE TABLE notification_horizons (
            recipient TEXT NOT NULL,
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            pruned_through BIGINT NOT NULL,
            PRIMARY KEY (recipient, container, environment)
        );
CREATE TABLE quotas (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            owner TEXT NOT NULL,
            bytes BIGINT NOT NULL,
            used BIGINT NOT NULL,
            PRIMARY KEY (container, environment, owner)
        );
CREATE TABLE database_horizons (
            container TEXT NOT NULL,
            environment TEXT NOT NULL,
            scope TEXT NOT NULL,
            owner TEXT NOT NULL,
            below_seq BIGINT NOT NULL,
            PRIMARY KEY (container, environment, scope, owner)
        );
CREATE TABLE store_secrets (name TEXT PRIMARY KEY, value BYTEA NOT NULL);
CREATE TABLE blobs (
            checksum TEXT PRIMARY KEY,
            size BIGINT NOT NULL,
            stored_at BIGINT NOT NULL,
            unreferenced_since BIGINT
        );
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
        );
CREATE INDEX asset_uploads_age ON asset_uploads (created_at);
CREATE TABLE record_assets (
            zone_id BIGINT NOT NULL,
            record_name TEXT NOT NULL,
            checksum TEXT NOT NULL,
            PRIMARY KEY (zone_id, record_name, checksum)
        );
CREATE INDEX record_assets_blob ON record_assets (checksum);
CREATE TABLE shared_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL);
ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS allowed_origins TEXT NOT NULL DEFAULT '';
ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS sign_in_callback_url TEXT;
CREATE TABLE stratus_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL);
INSERT INTO stratus_migrations (name, applied_at) VALUES ('p1-identity', 1000), ('p2-records-shares-push-assets', 1000), ('p3-api-token-settings', 1000);
INSERT INTO containers (identifier, created_at) VALUES ('iCloud.fixture', 1000);
INSERT INTO accounts (user_record_name, email, created_at) VALUES ('_alice', 'alice@example.com', 1000);
UPDATE change_sequence SET value = 2 WHERE id = 1;
INSERT INTO zones (container, environment, scope, owner, name, atomic, created_seq, last_seq, compacted_below_seq, feed_seq) VALUES ('iCloud.fixture', 'development', 'private', '_alice', 'Notes', TRUE, 1, 2, 0, 1);
INSERT INTO records (zone_id, record_name, record_type, fields, fields_size, created_at, created_by, created_device, modified_at, modified_by, modified_device, seq, deleted) SELECT id, 'note-1', 'Note', '{"title":{"value":"kept across migrations","type":"STRING"}}', 59, 1000, '_alice', 'device-1', 1000, '_alice', 'device-1', 2, FALSE FROM zones WHERE name = 'Notes';
