-- Made by make-fixtures.py from Sources/StratusStore/SQLite/Migrations.swift at commit aef6a8efe98eb27fba8e5681dd4a8f48850ec661: do not edit.
BEGIN TRANSACTION;
CREATE TABLE accounts (
                        user_record_name TEXT PRIMARY KEY,
                        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        given_name TEXT,
                        family_name TEXT,
                        created_at INTEGER NOT NULL
                    , discoverable INTEGER NOT NULL DEFAULT 1);
INSERT INTO "accounts" VALUES('_alice','alice@example.com','Alice',NULL,1000,1);
CREATE TABLE admin_tokens (
                        token_hash TEXT PRIMARY KEY,
                        created_at INTEGER NOT NULL
                    );
CREATE TABLE api_tokens (
                        token_hash TEXT PRIMARY KEY,
                        container TEXT NOT NULL REFERENCES containers (identifier),
                        environment TEXT NOT NULL,
                        created_at INTEGER NOT NULL
                    );
INSERT INTO "api_tokens" VALUES('hash-of-api-token','iCloud.fixture','development',1000);
CREATE TABLE change_sequence (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        value INTEGER NOT NULL
                    );
INSERT INTO "change_sequence" VALUES(1,2);
CREATE TABLE containers (
                        identifier TEXT PRIMARY KEY,
                        created_at INTEGER NOT NULL
                    );
INSERT INTO "containers" VALUES('iCloud.fixture',1000);
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO "grdb_migrations" VALUES('v1-records-and-zones');
INSERT INTO "grdb_migrations" VALUES('v1-identity');
INSERT INTO "grdb_migrations" VALUES('v2-account-discoverability');
INSERT INTO "grdb_migrations" VALUES('v3-schema-indexes');
INSERT INTO "grdb_migrations" VALUES('v4-sharing');
INSERT INTO "grdb_migrations" VALUES('v5-delete-self-references');
INSERT INTO "grdb_migrations" VALUES('v6-share-coverage');
INSERT INTO "grdb_migrations" VALUES('v7-push');
INSERT INTO "grdb_migrations" VALUES('v8-account-events');
CREATE TABLE notification_horizons (
                        recipient TEXT NOT NULL,
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        pruned_through INTEGER NOT NULL,
                        PRIMARY KEY (recipient, container, environment)
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
CREATE TABLE push_tokens (
                        token TEXT PRIMARY KEY,
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        apns_environment TEXT NOT NULL,
                        user_record_name TEXT,
                        device_id TEXT,
                        start_position INTEGER NOT NULL
                    ) WITHOUT ROWID;
CREATE TABLE quotas (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        owner TEXT NOT NULL,
                        bytes INTEGER NOT NULL,
                        used INTEGER NOT NULL,
                        PRIMARY KEY (container, environment, owner)
                    ) WITHOUT ROWID;
CREATE TABLE record_references (
                        zone_id INTEGER NOT NULL,
                        target_name TEXT NOT NULL,
                        source_name TEXT NOT NULL,
                        PRIMARY KEY (zone_id, target_name, source_name)
                    ) WITHOUT ROWID;
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
INSERT INTO "records" VALUES(1,'note-1','Note','{"title":{"value":"kept across migrations","type":"STRING"}}',1000,'_alice','device-1',1000,'_alice','device-1',NULL,NULL,NULL,2,0);
CREATE TABLE schema_fields (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        record_type TEXT NOT NULL,
                        field_name TEXT NOT NULL,
                        field_type TEXT NOT NULL,
                        PRIMARY KEY (container, environment, record_type, field_name)
                    ) WITHOUT ROWID;
INSERT INTO "schema_fields" VALUES('iCloud.fixture','development','Note','title','STRING');
CREATE TABLE schema_indexes (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        record_type TEXT NOT NULL,
                        field_name TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        PRIMARY KEY (container, environment, record_type, field_name, kind)
                    ) WITHOUT ROWID;
CREATE TABLE share_coverage (
                        zone_id INTEGER NOT NULL,
                        share_name TEXT NOT NULL,
                        record_name TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        PRIMARY KEY (zone_id, share_name, record_name)
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
CREATE TABLE shared_zone_feed (
                        user_record_name TEXT NOT NULL,
                        zone_id INTEGER NOT NULL REFERENCES zones (id),
                        seq INTEGER NOT NULL,
                        visible INTEGER NOT NULL,
                        PRIMARY KEY (user_record_name, zone_id)
                    ) WITHOUT ROWID;
CREATE TABLE shares (
                        zone_id INTEGER NOT NULL REFERENCES zones (id),
                        record_name TEXT NOT NULL,
                        root_name TEXT,
                        short_guid TEXT NOT NULL UNIQUE,
                        public_permission TEXT NOT NULL,
                        PRIMARY KEY (zone_id, record_name)
                    ) WITHOUT ROWID;
CREATE TABLE subscriptions (
                        container TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        user_record_name TEXT NOT NULL,
                        subscription_id TEXT NOT NULL,
                        body TEXT NOT NULL,
                        PRIMARY KEY (container, environment, scope, user_record_name, subscription_id)
                    ) WITHOUT ROWID;
CREATE TABLE web_auth_tokens (
                        token_hash TEXT PRIMARY KEY,
                        user_record_name TEXT NOT NULL REFERENCES accounts (user_record_name),
                        container TEXT NOT NULL,
                        expires_at INTEGER,
                        created_at INTEGER NOT NULL
                    , revoked_at INTEGER);
INSERT INTO "web_auth_tokens" VALUES('hash-of-web-token','_alice','iCloud.fixture',NULL,1000,NULL);
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
                    , deleted_reason TEXT);
INSERT INTO "zones" VALUES(1,'iCloud.fixture','development','private','_alice','Notes',1,1,2,NULL,0,1,NULL);
CREATE UNIQUE INDEX zones_live ON zones (container, environment, scope, owner, name)
                        WHERE deleted_seq IS NULL;
CREATE INDEX zones_feed ON zones (container, environment, scope, owner, feed_seq);
CREATE UNIQUE INDEX records_changes ON records (zone_id, seq);
CREATE INDEX records_children ON records (zone_id, parent_name) WHERE parent_name IS NOT NULL;
CREATE INDEX share_participants_user ON share_participants (user_record_name, zone_id);
CREATE INDEX record_references_source ON record_references (zone_id, source_name);
CREATE INDEX share_coverage_seq ON share_coverage (zone_id, seq);
CREATE INDEX notifications_feed ON notifications (recipient, container, environment, position);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('zones',1);
COMMIT;
