// The results in one SQLite file (GRDB), the embedded default: one row per (batch, job),
// whoever sent it and however often.
//
//   batches(id PK, started, host, cores, configuration, revision, solvers, jobs)
//   results(batch, job, PK(batch, job), ...): the columns ResultColumn.swift lists, which the
//           insert and the export follow and an opened database is checked against
//
// Re-issued jobs can deliver a result twice; the insert keeps the first row of a (batch, job)
// and the sink counts the rest as duplicates. A result for the same number but another
// fingerprint answers a changed job (a batch resumed with --resume-changed) and replaces the
// row. WAL mode, so `gridlock report` can read
// while a batch writes; synchronous FULL, so that every transaction is on disk before the sink
// acknowledges it: with NORMAL a power cut could lose results the coordinator was told were
// stored, and it would never re-issue them. The sink writes in groups, so the cost is one fsync
// a group (no loss measured on trivial jobs, 27,000-30,000 a second).
//
// The store checks after each write that its path still names the file it opened (device and
// inode), and throws if not: SQLite goes on writing to a deleted or replaced file without an
// error, and a batch would report every result stored in a file nobody can open. The check
// comes before the sink acknowledges anything, so nothing written to the lost file counts.

import Foundation
import GRDB
import GridlockClusterBase
import GridlockWire

final class SQLiteResults: ResultsBackend {
    let queue: DatabaseQueue
    let path: String
    /// The opened file's identity, which every write checks the path still has.
    private let file: FileIdentity

    /// Opens the database at `path`, creating it if need be. `readOnly` (for reports, exports,
    /// comparisons and plots) never writes to the file: it is opened read-only, and a database
    /// an older build wrote is migrated in a copy in memory, so the file is byte-identical
    /// afterwards. (Reports used to migrate it in place: with a report racing a sink creating
    /// the file, the migration ran twice and the sink failed at start.)
    init(path: String, readOnly: Bool) throws {
        self.path = path
        do {
            var opened = try Self.open(path, readOnly: readOnly)
            if readOnly, try !opened.read(Self.migrator.hasCompletedMigrations) {
                opened = try Self.migratedCopy(of: opened)
            }
            queue = opened
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw ClusterError("\(path) is not a SQLite database, so not gridlock's results: name another file")
        } catch let error as DatabaseError where readOnly {
            throw ClusterError("cannot read \(path): \(error.message ?? "\(error)")")
        }
        if let mismatch = try queue.read(ResultColumn.mismatch(in:)) {
            throw ClusterError("\(path) is not a results database of this build: its results table \(mismatch)")
        }
        guard let identity = FileIdentity(path: path) else {
            throw ClusterError("\(path) vanished as it was opened: \(String(cString: strerror(errno)))")
        }
        file = identity
    }

    /// A connection to `path`: checked to be Gridlock's (or empty), and, to write, in WAL mode
    /// and migrated.
    private static func open(_ path: String, readOnly: Bool) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.readonly = readOnly
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        // Before anything is written: another program's database must not get our tables,
        // nor its journal switched to WAL.
        try refuseForeign(queue, path: path, readOnly: readOnly)
        if !readOnly {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            try migrator.migrate(queue)
        }
        return queue
    }

    /// An older build's database, copied and migrated for reading: into a temporary file, not
    /// memory, since a results database may be gigabytes. The copy's name is removed at once;
    /// the open connection keeps it until the store is gone.
    private static func migratedCopy(of source: DatabaseQueue) throws -> DatabaseQueue {
        let path = NSTemporaryDirectory() + "gridlock-read-\(getpid())-\(UUID().uuidString.prefix(8)).sqlite"
        let copy = try DatabaseQueue(path: path)
        defer { unlink(path) }
        try source.backup(to: copy)
        try migrator.migrate(copy)
        return copy
    }

    /// Refuses a database that holds tables but not Gridlock's, or, to read, none yet. Gridlock's
    /// are told by their record of migrations (GRDB's `grdb_migrations`), every one of them
    /// Gridlock's: tables merely named `results` and `batches` are another program's.
    private static func refuseForeign(_ queue: DatabaseQueue, path: String, readOnly: Bool) throws {
        let (tables, migrations) = try queue.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            let migrations = tables.contains("grdb_migrations") ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            return (tables, migrations)
        }
        if readOnly, tables.isEmpty {
            throw ClusterError("\(path) holds no results yet (no tables): is it the database a batch or a sink wrote?")
        }
        let ours = Set(migrator.migrations)
        let unknown = Set(migrations).subtracting(ours)
        if migrations.contains("v1"), !unknown.isEmpty, unknown.allSatisfy({ $0.hasPrefix("v") && Int($0.dropFirst()) != nil }) {
            throw ClusterError("\(path) was written by a newer gridlock (schema \(unknown.sorted().joined(separator: ", ")), which this build does not know): read it with that build")
        }
        guard tables.isEmpty || (tables.contains("results") && tables.contains("batches") && migrations.contains("v1") && ours.isSuperset(of: migrations)) else {
            let shown = tables.filter { $0 != "grdb_migrations" }.prefix(6).joined(separator: ", ")
            throw ClusterError("\(path) is another program's database (its tables: \(shown)), not gridlock's results: name another file")
        }
    }

    var location: ResultsLocation { .sqlite(path: path) }

    var identity: AnyHashable { file }

    /// Throws unless `path` still names the database this store writes to.
    func checkStillInPlace() throws {
        guard let now = FileIdentity(path: path) else {
            throw ClusterError("the results database \(path) was deleted while the batch ran (\(String(cString: strerror(errno)))); the results written since are lost with it")
        }
        guard now == file else {
            throw ClusterError("the results database \(path) was replaced by another file while the batch ran; the results written since went to the old one")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE batches (
                    id TEXT PRIMARY KEY, started TEXT NOT NULL, host TEXT NOT NULL, cores INTEGER NOT NULL,
                    configuration TEXT NOT NULL, revision TEXT NOT NULL, solvers TEXT NOT NULL, jobs INTEGER NOT NULL);
                CREATE TABLE results (
                    batch TEXT NOT NULL, job INTEGER NOT NULL, kind TEXT NOT NULL, puzzle TEXT NOT NULL,
                    solver TEXT NOT NULL, source TEXT NOT NULL, status TEXT NOT NULL, moves INTEGER,
                    solution TEXT NOT NULL, cluster INTEGER, error TEXT, attempt INTEGER NOT NULL,
                    worker TEXT NOT NULL, host TEXT NOT NULL, examined INTEGER NOT NULL, enqueued INTEGER NOT NULL,
                    max_queue INTEGER NOT NULL, states INTEGER NOT NULL, memory_bytes INTEGER NOT NULL,
                    seconds REAL NOT NULL, cpu_seconds REAL NOT NULL, peak_rss_bytes INTEGER NOT NULL,
                    expected_moves INTEGER, stored_at REAL NOT NULL,
                    PRIMARY KEY (batch, job));
                """)
        }
        // Version 2: each row keeps the fingerprint of the job it answers (0 in older rows,
        // which no job has, so a resumed old batch is reported as changed, not trusted).
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "ALTER TABLE results ADD COLUMN fingerprint INTEGER NOT NULL DEFAULT 0")
        }
        // Version 3: why a run ended early, the answer's verdict, and an outside solver's own
        // figures (issue 19). Older rows get
        // the verdict their columns imply: only built-in solvers, whose answers were replayed.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                ALTER TABLE results ADD COLUMN termination TEXT;
                ALTER TABLE results ADD COLUMN verdict TEXT NOT NULL DEFAULT 'unknown';
                ALTER TABLE results ADD COLUMN solver_stats TEXT;
                UPDATE results SET verdict = CASE
                    WHEN status IN ('solved', 'unsolvable') AND expected_moves IS NOT NULL AND COALESCE(moves, -1) != expected_moves THEN 'wrong'
                    WHEN status IN ('solved', 'unsolvable') THEN 'correct' ELSE 'unknown' END;
                """)
        }
        // Version 4 (issue 19): what the worker held idle, so the tables can show a job's
        // resident set above it (older rows say 0: not known, left out of that mean); the
        // machines a batch ran on, one row per host, as its workers described them; and the
        // limits its jobs ran under.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                ALTER TABLE results ADD COLUMN worker_idle_rss_bytes INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE results ADD COLUMN repetition INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE batches ADD COLUMN time_limit_seconds REAL;
                ALTER TABLE batches ADD COLUMN wall_limit_seconds REAL;
                ALTER TABLE batches ADD COLUMN memory_limit_bytes INTEGER;
                CREATE TABLE machines (
                    batch TEXT NOT NULL, host TEXT NOT NULL, cpu_model TEXT NOT NULL, cores INTEGER NOT NULL,
                    threads INTEGER NOT NULL, governor TEXT, turbo TEXT, kernel TEXT NOT NULL, memory_bytes INTEGER NOT NULL,
                    load_average REAL NOT NULL, method TEXT NOT NULL, PRIMARY KEY (batch, host));
                """)
        }
        // Version 5 (issue 43): what it takes to run a batch again (BatchRecipe, as JSON; NULL
        // in older batches, which `rerun` refuses, naming what it lacks), and each machine's
        // code path, clock and SMT.
        migrator.registerMigration("v5") { db in
            try db.execute(sql: """
                ALTER TABLE batches ADD COLUMN recipe TEXT;
                ALTER TABLE machines ADD COLUMN code_path TEXT NOT NULL DEFAULT 'unknown';
                ALTER TABLE machines ADD COLUMN cpu_mhz REAL NOT NULL DEFAULT 0;
                ALTER TABLE machines ADD COLUMN smt TEXT;
                """)
        }
        return migrator
    }

}

/// A file's device and inode: what stays the same while it is the same file.
public struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
