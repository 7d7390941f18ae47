#!/usr/bin/env python3
"""Makes, once, the SQL dumps the migration tests open: databases built by the migrations exactly
as the code of an earlier commit had them (read from git history), with a little data in them.

Run from the repository root: Tests/StratusStoreTests/Fixtures/make-fixtures.py
The dumps are committed; this script only records how they were made."""
import re
import sqlite3
import subprocess
import pathlib

HERE = pathlib.Path(__file__).parent
SQLITE_MIGRATIONS = "Sources/StratusStore/SQLite/Migrations.swift"

# (fixture, commit): v8-account-events as it first landed, and as it was last edited (with v9, v10).
SQLITE_FIXTURES = [
    ("sqlite-v8-as-first-landed.sql", "aef6a8efe98eb27fba8e5681dd4a8f48850ec661"),
    ("sqlite-v10-with-v8-edited.sql", "7176834"),
]

SAMPLE_DATA = """
INSERT INTO containers (identifier, created_at) VALUES ('iCloud.fixture', 1000);
INSERT INTO api_tokens (token_hash, container, environment, created_at) VALUES ('hash-of-api-token', 'iCloud.fixture', 'development', 1000);
INSERT INTO accounts (user_record_name, email, given_name, family_name, created_at) VALUES ('_alice', 'alice@example.com', 'Alice', NULL, 1000);
INSERT INTO web_auth_tokens (token_hash, user_record_name, container, expires_at, created_at) VALUES ('hash-of-web-token', '_alice', 'iCloud.fixture', NULL, 1000);
UPDATE change_sequence SET value = 2 WHERE id = 1;
INSERT INTO zones (id, container, environment, scope, owner, name, atomic, created_seq, last_seq, deleted_seq, compacted_below_seq, feed_seq)
    VALUES (1, 'iCloud.fixture', 'development', 'private', '_alice', 'Notes', 1, 1, 2, NULL, 0, 1);
INSERT INTO records (zone_id, record_name, record_type, fields, created_at, created_by, created_device, modified_at, modified_by,
    modified_device, parent_name, share_name, short_guid, seq, deleted)
    VALUES (1, 'note-1', 'Note', '{"title":{"value":"kept across migrations","type":"STRING"}}', 1000, '_alice', 'device-1', 1000, '_alice',
    'device-1', NULL, NULL, NULL, 2, 0);
INSERT INTO schema_fields (container, environment, record_type, field_name, field_type) VALUES ('iCloud.fixture', 'development', 'Note', 'title', 'STRING');
"""


def migrations(swift: str):
    """The (name, SQL) of each `registerMigration` whose body is one `db.execute(sql:)`."""
    pattern = re.compile(
        r'registerMigration\("([^"]+)"\)\s*\{\s*db in\s*(?://[^\n]*\s*)*(?:try db\.execute\(\s*sql:\s*(?:"""(.*?)"""|"((?:[^"\\]|\\.)*)"))',
        re.S,
    )
    found = [(m.group(1), m.group(2) if m.group(2) is not None else m.group(3)) for m in pattern.finditer(swift)]
    names = re.findall(r'registerMigration\("([^"]+)"\)', swift)
    assert [n for n, _ in found] == names, f"a migration is not one execute(sql:): {names}"
    return found


def make(fixture: str, commit: str):
    swift = subprocess.run(["git", "show", f"{commit}:{SQLITE_MIGRATIONS}"], check=True, capture_output=True, text=True).stdout
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    for name, sql in migrations(swift):
        db.executescript(sql)
        db.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", (name,))
    db.executescript(SAMPLE_DATA)
    db.commit()
    header = f"-- Made by make-fixtures.py from {SQLITE_MIGRATIONS} at commit {commit}: do not edit.\n"
    (HERE / fixture).write_text(header + "\n".join(db.iterdump()) + "\n")


def swift_strings(swift: str):
    """The string literals of a Swift array of SQL statements, in order (comments skipped)."""
    swift = re.sub(r"^\s*//.*$", "", swift, flags=re.M)
    literals = re.finditer(r'"""\n(.*?)\n\s*"""|"((?:[^"\\]|\\.)*)"', swift, re.S)
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in literals]


# (fixture, commit, whether p2 had shared_settings then): p2 as it first landed (p1, p2), and as
# it was edited (p1, p2 with shared_settings, p3).
POSTGRES_FIXTURES = [
    ("postgres-p2-as-first-landed.sql", "ebf9ceacdafa81292c43bb603821aac6258a0e92", False),
    ("postgres-p3-with-p2-edited.sql", "7176834", True),
]
POSTGRES_SAMPLE_DATA = [
    "INSERT INTO containers (identifier, created_at) VALUES ('iCloud.fixture', 1000)",
    "INSERT INTO accounts (user_record_name, email, created_at) VALUES ('_alice', 'alice@example.com', 1000)",
    "UPDATE change_sequence SET value = 2 WHERE id = 1",
    "INSERT INTO zones (container, environment, scope, owner, name, atomic, created_seq, last_seq, compacted_below_seq, feed_seq) "
    "VALUES ('iCloud.fixture', 'development', 'private', '_alice', 'Notes', TRUE, 1, 2, 0, 1)",
    "INSERT INTO records (zone_id, record_name, record_type, fields, fields_size, created_at, created_by, created_device, modified_at, "
    "modified_by, modified_device, seq, deleted) SELECT id, 'note-1', 'Note', "
    "'{\"title\":{\"value\":\"kept across migrations\",\"type\":\"STRING\"}}', 59, 1000, '_alice', 'device-1', 1000, '_alice', "
    "'device-1', 2, FALSE FROM zones WHERE name = 'Notes'",
]


def make_postgres(fixture: str, commit: str, edited: bool):
    def show(path):
        return subprocess.run(["git", "show", f"{commit}:{path}"], check=True, capture_output=True, text=True).stdout
    main = show("Sources/StratusStorePostgres/PostgresMigrations.swift")
    names = re.findall(r'\("(p\d+-[a-z-]+)", ', main)
    regions = [main.index(f'("{name}", ') for name in names] + [main.index("static func migrate")]
    migrations = []
    for name, start, end in zip(names, regions, regions[1:]):
        statements = swift_strings(main[start:end])[1:]
        if name == "p2-records-shares-push-assets":
            records = show("Sources/StratusStorePostgres/PostgresMigrations+Records.swift")
            statements = swift_strings(records[records.index("recordsSharesPushAssets: [String] = ["):])
            assert ("shared_settings" in " ".join(statements)) == edited
        migrations.append((name, statements))
    statements = [statement for _, statements in migrations for statement in statements] + [
        "CREATE TABLE stratus_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)",
        "INSERT INTO stratus_migrations (name, applied_at) VALUES " + ", ".join(f"('{name}', 1000)" for name, _ in migrations),
    ] + POSTGRES_SAMPLE_DATA
    assert all(";" not in statement for statement in statements)
    header = f"-- Made by make-fixtures.py from the PostgreSQL migrations at commit {commit}: do not edit.\n"
    (HERE / fixture).write_text(header + "".join(statement.strip() + ";\n" for statement in statements))


for fixture, commit in SQLITE_FIXTURES:
    make(fixture, commit)
for fixture, commit, edited in POSTGRES_FIXTURES:
    make_postgres(fixture, commit, edited)
