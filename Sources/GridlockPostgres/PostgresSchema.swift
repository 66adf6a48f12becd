// The results schema in PostgreSQL: the same three tables as SQLite's, the results table made
// from ResultColumn's one list. SQLite reaches it through migrations v1-v5; a PostgreSQL
// database starts at v5 in one transaction, and records the same names, so that a later
// migration is written for both under one name.
//
// Text keys sort as SQLite sorts them, by bytes (COLLATE "C"): `report` and `export` order
// rows by batch and job, and the same batch must print byte for byte the same from either.

#if PostgreSQL
import GridlockClusterBase
import GridlockCluster

enum PostgresSchema {
    /// The migrations this build knows, as `gridlock_migrations` records them: SQLite's names.
    static let migrations = ["v1", "v2", "v3", "v4", "v5"]

    /// Any fixed number: the key two sinks starting at once take turns on, so that one creates
    /// the tables and the other finds them.
    private static let lockKey = 0x6772_6964_6c6f_636b

    static func type(of column: ResultColumn) -> String {
        let base = switch column.affinity {
        case .text: "text COLLATE \"C\""
        case .integer: "bigint"
        case .real: "double precision"
        }
        return base + (column.notNull ? " NOT NULL" : "")
    }

    static var createSQL: [String] {
        [
            """
            CREATE TABLE batches (
                id text COLLATE "C" PRIMARY KEY, started text COLLATE "C" NOT NULL, host text NOT NULL, cores bigint NOT NULL,
                configuration text NOT NULL, revision text NOT NULL, solvers text NOT NULL, jobs bigint NOT NULL,
                time_limit_seconds double precision, wall_limit_seconds double precision, memory_limit_bytes bigint, recipe text)
            """,
            "CREATE TABLE results (\(ResultColumn.all.map { "\($0.name) \(type(of: $0))" }.joined(separator: ", ")), PRIMARY KEY (batch, job))",
            """
            CREATE TABLE machines (
                batch text COLLATE "C" NOT NULL, host text COLLATE "C" NOT NULL, cpu_model text NOT NULL, cores bigint NOT NULL,
                threads bigint NOT NULL, governor text, turbo text, kernel text NOT NULL, memory_bytes bigint NOT NULL,
                load_average double precision NOT NULL, method text NOT NULL, code_path text NOT NULL DEFAULT 'unknown',
                cpu_mhz double precision NOT NULL DEFAULT 0, smt text, PRIMARY KEY (batch, host))
            """,
            "CREATE TABLE gridlock_migrations (identifier text PRIMARY KEY)",
        ]
    }

    /// Checks the database is Gridlock's (or, to write, empty, and then creates the tables),
    /// as SQLiteResults does for a file: another program's tables are refused, a newer
    /// build's schema is refused, a reader of an empty database is told it holds nothing.
    static func prepare(_ session: PostgresSession, readOnly: Bool) throws {
        let url = session.url
        try session.transaction {
            if !readOnly { try session.run("SELECT pg_advisory_xact_lock(\(lockKey))") }
            let tables = try session.run("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
                .rows.compactMap { try? $0.decode(String.self) }
            let known = tables.contains("gridlock_migrations")
                ? try session.run("SELECT identifier FROM gridlock_migrations").rows.compactMap { try? $0.decode(String.self) } : []
            if tables.isEmpty {
                guard !readOnly else {
                    throw ClusterError("\(url) holds no results yet (no tables): is it the database a batch or a sink wrote?")
                }
                for statement in createSQL { try session.run(statement) }
                try session.run("INSERT INTO gridlock_migrations VALUES \(migrations.map { "('\($0)')" }.joined(separator: ", "))")
                return
            }
            let unknown = Set(known).subtracting(migrations)
            if known.contains("v1"), !unknown.isEmpty {
                throw ClusterError("\(url) was written by a newer gridlock (schema \(unknown.sorted().joined(separator: ", ")), which this build does not know): read it with that build")
            }
            guard tables.contains("results"), tables.contains("batches"), Set(known) == Set(migrations) else {
                let shown = tables.filter { $0 != "gridlock_migrations" }.prefix(6).joined(separator: ", ")
                throw ClusterError("\(url) holds another program's tables (\(shown)), not gridlock's results: name another database")
            }
        }
        if let mismatch = try mismatch(session) {
            throw ClusterError("\(url) is not a results database of this build: its results table \(mismatch)")
        }
    }

    /// Where the results table differs from ResultColumn's list, in words; nil when it matches.
    private static func mismatch(_ session: PostgresSession) throws -> String? {
        let found = try session.run("""
            SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = 'results' ORDER BY ordinal_position
            """).rows.map { row -> String in
            let (name, type, nullable) = try row.decode((String, String, String).self)
            return "\(name) \(type)\(nullable == "NO" ? " NOT NULL" : "")"
        }
        let expected = ResultColumn.all.map { column -> String in
            let type = switch column.affinity {
            case .text: "text"
            case .integer: "bigint"
            case .real: "double precision"
            }
            return "\(column.name) \(type)\(column.notNull ? " NOT NULL" : "")"
        }
        guard found != expected else { return nil }
        let first = zip(found, expected).first { $0 != $1 }
        return first.map { "has column '\($0.0)' where this build expects '\($0.1)'" }
            ?? "has \(found.count) columns where this build expects \(expected.count)"
    }
}
#endif
