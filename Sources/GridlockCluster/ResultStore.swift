// The results database: one SQLite file (GRDB), one row per (batch, job), whoever sent it and
// however often.
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

public final class ResultStore: Sendable {
    let queue: DatabaseQueue
    public let path: String
    /// The opened file's identity, which `store` checks the path still has.
    private let identity: FileIdentity

    /// Opens the database at `path`, creating it if need be. `readOnly` (for reports, exports,
    /// comparisons and plots) never writes to the file: it is opened read-only, and a database
    /// an older build wrote is migrated in a copy in memory, so the file is byte-identical
    /// afterwards. (Reports used to migrate it in place: with a report racing a sink creating
    /// the file, the migration ran twice and the sink failed at start.)
    public init(path: String, readOnly: Bool = false) throws {
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
        self.identity = identity
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

    /// Throws unless `path` still names the database this store writes to.
    public func checkStillAtPath() throws {
        guard let now = FileIdentity(path: path) else {
            throw ClusterError("the results database \(path) was deleted while the batch ran (\(String(cString: strerror(errno)))); the results written since are lost with it")
        }
        guard now == identity else {
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

    /// Records a batch's environment (once; a resumed batch keeps the first record).
    public func record(_ batch: BatchRecord) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO batches (id, started, host, cores, configuration, revision, solvers, jobs,
                        time_limit_seconds, wall_limit_seconds, memory_limit_bytes, recipe) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [batch.batch, batch.started, batch.host, batch.cores, batch.configuration,
                            batch.revision, batch.solvers, batch.jobs, batch.limits.cpuSeconds, batch.wallLimitSeconds, batch.limits.memoryBytes,
                            batch.recipe.map(BatchRecord.json)])
        }
    }

    /// Writes down the load when a batch's last job was stored, in its recipe (a batch
    /// recorded without one has nowhere to keep it).
    public func recordLoadAtEnd(batch: String, _ load: Double) throws {
        try queue.write { db in
            let text = try String.fetchOne(db, sql: "SELECT recipe FROM batches WHERE id = ?", arguments: [batch])
            guard var recipe = text.flatMap(BatchRecord.recipe(json:)) else { return }
            recipe.loadAtEnd = load
            try db.execute(sql: "UPDATE batches SET recipe = ? WHERE id = ?", arguments: [BatchRecord.json(recipe), batch])
        }
    }

    /// Adds the workers a batch's coordinator quarantined to its recipe (a resumed batch's
    /// list keeps those of its earlier runs), at most `BatchRecipe.maximumQuarantined`.
    public func recordQuarantined(batch: String, _ workers: [String]) throws {
        try queue.write { db in
            let text = try String.fetchOne(db, sql: "SELECT recipe FROM batches WHERE id = ?", arguments: [batch])
            guard var recipe = text.flatMap(BatchRecord.recipe(json:)) else { return }
            let known = recipe.quarantined ?? []
            let added = workers.filter { !known.contains($0) }
            guard !added.isEmpty else { return }
            recipe.quarantined = Array((known + added).prefix(BatchRecipe.maximumQuarantined))
            try db.execute(sql: "UPDATE batches SET recipe = ? WHERE id = ?", arguments: [BatchRecord.json(recipe), batch])
        }
    }

    /// Completes a batch's record once its input has been read: how many jobs, which solvers.
    /// `solvers`, when the caller knows them all (its fold of the results held every row),
    /// saves reading the whole batch back for them: 0.4 s of a million-job batch.
    public func recordTotal(batch: String, jobs: Int, solvers known: [String]? = nil) throws {
        try queue.write { db in
            let solvers = try known.map { Set($0).sorted() }
                ?? String.fetchAll(db, sql: "SELECT DISTINCT solver FROM results WHERE batch = ? ORDER BY solver", arguments: [batch])
            try db.execute(
                sql: "UPDATE batches SET jobs = ?, solvers = ? WHERE id = ?",
                arguments: [jobs, solvers.map { "\($0)@\(BatchRecord.solverVersion)" }.joined(separator: ","), batch])
        }
    }

    /// What storing a group did: each result's row as it now stands (a duplicate's is the row
    /// stored before it, which may have ended otherwise), and how many rows were new.
    public struct Stored: Sendable, Hashable {
        public var rows: [StoredJob]
        public var inserted: Int
        /// The indices of the results whose rows this write made (new, or replacing a changed
        /// job's): what a fold of the stored rows adds.
        public var written: [Int] = []

        public init(rows: [StoredJob], inserted: Int, written: [Int] = []) {
            self.rows = rows
            self.inserted = inserted
            self.written = written
        }
    }

    /// Stores results in one transaction.
    public func store(_ results: [JobResult]) throws -> Stored {
        let now = Date().timeIntervalSince1970
        return try queue.write { db in
            var stored = Stored(rows: [], inserted: 0)
            var insert = try SQLiteInsert(db, sql: ResultColumn.insertSQL)
            for (index, result) in results.enumerated() {
                ResultColumn.bind(result, storedAt: now, to: &insert)
                if try insert.run() == 1 {
                    stored.inserted += 1
                    stored.written.append(index)
                    stored.rows.append(StoredJob(storing: result))
                } else {
                    stored.rows.append(try Self.storedRow(db, batch: result.batch, job: result.job))
                }
            }
            return stored
        }.checked(by: self)
    }

    /// The row stored for a job, as an acknowledgement says it.
    private static func storedRow(_ db: Database, batch: String, job: Int) throws -> StoredJob {
        // The insert found it there; another connection could have deleted it since.
        guard let stored = try acknowledgements(db, filter: "batch = ? AND job = ?", arguments: [batch, job], limit: 1).first else {
            throw UndecodableRow(batch: batch, job: job, reason: "its row was there a moment ago and is gone")
        }
        return stored
    }

    /// The stored jobs of a batch numbered `from` or more, at most `limit`, in order.
    public func storedJobs(batch: String, from: Int, limit: Int) throws -> [StoredJob] {
        try queue.read { db in
            try Self.acknowledgements(db, filter: "batch = ? AND job >= ?", arguments: [batch, from], limit: limit)
        }
    }

    /// What the sink's acknowledgements say of the rows `filter` picks, in job order. A row
    /// whose status does not decode (another program's) counts as failed, never as a success;
    /// its identity must decode, or the sink cannot say which job it is.
    private static func acknowledgements(_ db: Database, filter: String, arguments: StatementArguments, limit: Int) throws -> [StoredJob] {
        let reading = StoredRow.Reading.acknowledgement
        return try Row.fetchAll(
            db, sql: "SELECT \(reading.sql) FROM results WHERE \(filter) ORDER BY job LIMIT \(max(0, limit))", arguments: arguments
        ).map { row in
            let (stored, unreadable) = StoredRow.bestEffort(row, reading: reading)
            if let column = ["job", "fingerprint"].first(where: unreadable.contains) {
                throw UndecodableRow(batch: stored.batch, job: stored.job, reason: "its \(column) is not a number: the sink cannot say which job it is")
            }
            return stored.acknowledgement
        }
    }

    /// Drops the rows of a batch numbered `from` or more; returns how many.
    public func forget(batch: String, from: Int) throws -> Int {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM results WHERE batch = ? AND job >= ?", arguments: [batch, from])
            return db.changesCount
        }
    }

    /// The rows of a batch (or of every batch) in batch and job order, with the columns
    /// `reading` asks for, through a cursor: a database of millions of jobs is read without
    /// loading it. A row that does not decode (a kind or status this build does not know, text
    /// where a number belongs: another program wrote it) goes to `undecodable`, named by batch
    /// and job, never to `body`, never trapped on. `filter` is more SQL for the WHERE clause.
    public func forEachRow(
        batch: String?, reading: StoredRow.Reading, filter: String? = nil, arguments: StatementArguments = [], limit: Int? = nil,
        undecodable: (UndecodableRow) throws -> Void, _ body: (StoredRow) throws -> Void
    ) throws {
        try queue.read { db in
            let conditions = [batch == nil ? nil : "batch = ?", filter].compactMap { $0 }
            let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            var all: StatementArguments = batch.map { [$0] } ?? []
            all += arguments
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT \(reading.sql) FROM results \(condition) ORDER BY batch, job\(limit.map { " LIMIT \(max(0, $0))" } ?? "")",
                arguments: all)
            while let row = try cursor.next() {
                let decoded: StoredRow
                do {
                    decoded = try StoredRow(row, reading: reading)
                } catch {
                    try undecodable(StoredRow.undecodable(row, reading: reading, error: error))
                    continue
                }
                try body(decoded)
            }
        }
    }

    /// The jobs that did not run (invalid or failed), the first `limit` of them; throws the
    /// first that does not decode.
    public func problems(batch: String?, limit: Int) throws -> [StoredRow] {
        var rows: [StoredRow] = []
        try forEachRow(
            batch: batch, reading: .everything, filter: "status IN ('invalid', 'failed')", limit: limit, undecodable: { throw $0 }
        ) { rows.append($0) }
        return rows
    }

    /// The rows of these jobs of `batch`, in job order: the problems a streamed report kept.
    public func problems(batch: String, jobs: [Int]) throws -> [StoredRow] {
        var rows: [StoredRow] = []
        for job in jobs.sorted() {
            try forEachRow(batch: batch, reading: .everything, filter: "job = ?", arguments: [job], undecodable: { throw $0 }) { rows.append($0) }
        }
        return rows
    }

    /// The names of the batches the database holds rows or a record of, in order.
    public func batchNames() throws -> [String] {
        try queue.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM batches UNION SELECT DISTINCT batch FROM results ORDER BY 1")
        }
    }

    public func batches() throws -> [BatchRecord] {
        try queue.read { db in
            // `decode` throws, naming the column, where another program stored what a field
            // cannot hold; the subscript would trap.
            try Row.fetchAll(db, sql: "SELECT * FROM batches ORDER BY started").map { row in
                // Limits another program stored as text, or no number, are no limits.
                func positive(_ column: String) -> Double? {
                    (try? row.decode(Double?.self, forColumn: column)).flatMap { $0 }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
                }
                return BatchRecord(
                    batch: try row.decode(forColumn: "id"), started: try row.decode(forColumn: "started"), host: try row.decode(forColumn: "host"),
                    cores: try row.decode(forColumn: "cores"), configuration: try row.decode(forColumn: "configuration"),
                    revision: try row.decode(forColumn: "revision"), solvers: try row.decode(forColumn: "solvers"),
                    jobs: try row.decode(forColumn: "jobs"),
                    limits: JobLimits(
                        cpuSeconds: positive("time_limit_seconds"), memoryBytes: positive("memory_limit_bytes").flatMap { $0 < 9e18 ? Int($0) : nil }),
                    wallLimitSeconds: positive("wall_limit_seconds"),
                    // A recipe that does not decode (another program's text) is no recipe.
                    recipe: (try? row.decode(String?.self, forColumn: "recipe")).flatMap { $0 }.flatMap(BatchRecord.recipe(json:)))
            }
        }
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

extension ResultStore.Stored {
    /// This write, once the store's file is known to be still in place.
    fileprivate func checked(by store: ResultStore) throws -> Self {
        try store.checkStillAtPath()
        return self
    }
}
