import AgroDomain
import Foundation
import PostgresNIO

/// The store's tables, as numbered migrations. `schema_migration` lists the versions applied;
/// opening the store applies the missing ones in order, each in its own transaction, under an
/// advisory lock so that several instances starting at once migrate once. A migration is never
/// edited once released: a change of schema is a new one at the end (docs/journal.md).
enum PostgresSchema {
    /// A migration: its version, what it does, and its statements (run in one transaction).
    struct Migration {
        var version: Int
        var description: String
        var statements: [String]
    }

    /// Every migration, oldest first; versions 1, 2, 3, ...
    static let migrations: [Migration] = [
        Migration(
            version: 1, description: "farms, accounts, sessions, the numbered append-only journal",
            statements: [
                // A farm and its counter: each change stored for it takes the next number,
                // under this row's lock, so numbers are gapless and in commit order.
                """
                CREATE TABLE farm (
                    id uuid PRIMARY KEY,
                    name text NOT NULL,
                    name_key text NOT NULL UNIQUE,
                    last_sequence bigint NOT NULL DEFAULT 0 CHECK (last_sequence >= 0)
                )
                """,
                """
                CREATE TABLE account (
                    login_key text PRIMARY KEY,
                    login text NOT NULL,
                    farm uuid NOT NULL REFERENCES farm(id),
                    role text NOT NULL CHECK (role IN ('owner', 'agronomist', 'inspector')),
                    password_hash text NOT NULL
                )
                """,
                "CREATE INDEX account_farm ON account(farm, login_key)",
                // Only a digest of each token: a copy of the database opens no session.
                """
                CREATE TABLE session (
                    token_digest text PRIMARY KEY,
                    login_key text NOT NULL REFERENCES account(login_key) ON DELETE CASCADE,
                    expires timestamptz NOT NULL
                )
                """,
                "CREATE INDEX session_login ON session(login_key)",
                "CREATE INDEX session_expires ON session(expires)",
                // Keys are (farm, id): the ids are made on devices, and one farm's ids never
                // reach, shadow or reveal another's.
                """
                CREATE TABLE field (
                    farm uuid NOT NULL REFERENCES farm(id),
                    id uuid NOT NULL,
                    sequence bigint NOT NULL,
                    name text NOT NULL,
                    name_key text NOT NULL,
                    body text NOT NULL,
                    written_at timestamptz NOT NULL,
                    PRIMARY KEY (farm, id),
                    UNIQUE (farm, name_key),
                    UNIQUE (farm, sequence)
                )
                """,
                """
                CREATE TABLE spray_record (
                    farm uuid NOT NULL,
                    revision uuid NOT NULL,
                    record uuid NOT NULL,
                    field uuid NOT NULL,
                    sequence bigint NOT NULL,
                    number integer NOT NULL CHECK (number >= 1),
                    start text NOT NULL,
                    body text NOT NULL,
                    findings text NOT NULL,
                    errors integer NOT NULL,
                    written_at timestamptz NOT NULL,
                    PRIMARY KEY (farm, revision),
                    UNIQUE (farm, record, number),
                    UNIQUE (farm, sequence),
                    FOREIGN KEY (farm, field) REFERENCES field(farm, id)
                )
                """,
                "CREATE INDEX spray_record_field ON spray_record(farm, field, start)",
                // A journal an auditor accepts is append-only: a correction is a new revision.
                """
                CREATE FUNCTION journal_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'the journal keeps every revision: % on % refused', TG_OP, TG_TABLE_NAME
                        USING ERRCODE = 'restrict_violation';
                END
                $$
                """,
                """
                CREATE TRIGGER field_append_only BEFORE UPDATE OR DELETE ON field
                FOR EACH ROW EXECUTE FUNCTION journal_refuse_change()
                """,
                """
                CREATE TRIGGER spray_record_append_only BEFORE UPDATE OR DELETE ON spray_record
                FOR EACH ROW EXECUTE FUNCTION journal_refuse_change()
                """,
                """
                CREATE TRIGGER field_no_truncate BEFORE TRUNCATE ON field
                FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change()
                """,
                """
                CREATE TRIGGER spray_record_no_truncate BEFORE TRUNCATE ON spray_record
                FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change()
                """,
            ])
    ]

    /// The newest version this agro knows.
    static var latest: Int { migrations.last?.version ?? 0 }

    /// The lock key of migrations (any constant; "agro" in ASCII).
    private static let lockKey: Int64 = 0x6167_726f

    /// Applies the migrations the database lacks; returns the versions applied now.
    @discardableResult
    static func migrate(_ session: SQLSession) throws -> [Int] {
        var applied: [Int] = []
        for migration in migrations {
            let done: Bool = try session.transaction {
                // Held to the end of the transaction: a second instance waits, then sees it done.
                try session.query("SELECT pg_advisory_xact_lock(\(lockKey))")
                try session.query(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migration (
                        version integer PRIMARY KEY,
                        description text NOT NULL,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """)
                let current = try version(session)
                if current > latest { throw PostgresStoreError.schemaTooNew(found: current, known: latest) }
                guard current < migration.version else { return (false, commit: true) }
                for statement in migration.statements { try session.query(PostgresQuery(unsafeSQL: statement)) }
                try session.query(
                    "INSERT INTO schema_migration(version, description) VALUES (\(migration.version), \(migration.description))"
                )
                return (true, commit: true)
            }
            if done { applied.append(migration.version) }
        }
        return applied
    }

    /// The database's schema version (0 before the first migration).
    static func version(_ session: SQLSession) throws -> Int {
        let exists = try session.query("SELECT to_regclass('schema_migration') IS NOT NULL").first?.decode(Bool.self)
        guard exists == true else { return 0 }
        return try session.query("SELECT COALESCE(MAX(version), 0)::bigint FROM schema_migration").first?.decode(Int.self) ?? 0
    }
}
