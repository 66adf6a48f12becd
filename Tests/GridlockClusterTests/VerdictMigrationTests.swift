// A results database written before verdicts (migration v3, issue 19) opens with each old row's
// verdict worked out from its columns, so a resumed or reported old batch counts its wrong
// answers as it always did.

import Foundation
import GRDB
import Testing
@testable import GridlockCluster

@Suite struct VerdictMigrationTests {
    /// A database as a build before v3 wrote it, with four rows.
    static func oldDatabase() throws -> String {
        let path = ResultColumnTests.temporaryPath()
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            // The schema and migration record of a build before v3.
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
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
                ALTER TABLE results ADD COLUMN fingerprint INTEGER NOT NULL DEFAULT 0;
                """)
            for (job, status, moves, expected) in [(0, "solved", 23, 23), (1, "solved", 25, 23), (2, "cutoff", nil, 23), (3, "unsolvable", nil, nil)] as [(Int, String, Int?, Int?)] {
                try db.execute(
                    sql: """
                        INSERT INTO results VALUES ('old', ?, 'rushhour', 'p', 'bfs', 'f:1', ?, ?, '', NULL, NULL, 1, 'h:1', 'h',
                            0, 0, 0, 0, 0, 0.001, 0.001, 0, ?, 0, 7)
                        """,
                    arguments: [job, status, moves, expected])
            }
        }
        try old.close()
        return path
    }

    @Test("old rows get correct, wrong or unknown from their status and expected answer")
    func oldRowsJudged() throws {
        let store = try ResultStore(path: try Self.oldDatabase())
        let verdicts = try (store.backend as! SQLiteResults).queue.read { db in try String.fetchAll(db, sql: "SELECT verdict FROM results ORDER BY job") }
        #expect(verdicts == ["correct", "wrong", "unknown", "correct"])
        #expect(try store.tally(batch: "old").wrong == 1)
    }

    @Test("read-only, an old database is read through a copy migrated in memory: the file is byte-identical, no journal left")
    func oldDatabaseReadOnly() throws {
        let path = try Self.oldDatabase()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try ResultStore(path: path, readOnly: true)
        #expect(try store.tally(batch: "old").wrong == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let migrations = try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations == ["v1", "v2"])
    }
}
