// The results table's one column list: the opened database must have exactly its columns, the
// insert fills each from the result, and the export writes each.

import Foundation
import GRDB
import GridlockCore
import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct ResultColumnTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("columns-\(UUID().uuidString).sqlite").path
    }

    @Test("texts are stored whole: empty, non-ASCII, and longer than the insert's 64 KiB row buffer, many rows in a row")
    func textsSurviveTheRowBuffer() throws {
        let store = try ResultStore(path: Self.temporaryPath())
        let long = String(repeating: "A B, ", count: 40_000)
        let texts = ["", "é→✓", long, "short", long + "end", ""]
        let results = texts.enumerated().map { index, text in
            var result = JobResult(
                answering: Job(batch: "b", id: index, attempt: 1, kind: .rushhour, puzzle: "p\(text.prefix(3))", solver: "bfs", maxStates: 9,
                               timeoutSeconds: nil, source: "f:\(index + 1)"),
                worker: WorkerIdentity(host: "h", pid: 1), status: .failed)
            result.error = text
            result.solution = String(text.reversed())
            return result
        }
        _ = try store.store(results)
        let stored = try store.problems(batch: "b", limit: 10)
        #expect(stored.map(\.error) == texts)
        #expect(stored.map(\.solution) == texts.map { String($0.reversed()) })
    }

    @Test("a new database has exactly the listed columns, and a row stored and exported carries every one")
    func storeAndExportFollowTheList() throws {
        let store = try ResultStore(path: Self.temporaryPath())
        let job = Job(batch: "b", id: 3, attempt: 1, kind: .tilt, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil, source: "f:4")
        var result = JobResult(answering: job, worker: WorkerIdentity(host: "h", pid: 7), status: .solved)
        result.moves = 5
        result.expectedMoves = 6
        result.examined = 11
        result.peakRSSBytes = 4_096
        #expect(try store.store([result]).inserted == 1)
        var exported: [[String: Any]] = []
        try store.forEachRow(batch: "b", reading: .everything, undecodable: { Issue.record("row does not decode: \($0)") }) { row in
            let data = Data(JSONLine.encode(row).utf8)
            exported.append(try JSONSerialization.jsonObject(with: data) as! [String: Any])
        }
        let row = try #require(exported.first)
        #expect(Set(row.keys) == Set(ResultColumn.all.map(\.exportName)))
        #expect(row["kind"] as? String == "tilt")
        #expect(row["moves"] as? Int == 5)
        #expect(row["expectedMoves"] as? Int == 6)
        #expect(row["examined"] as? Int == 11)
        #expect(row["peakRSSBytes"] as? Int == 4_096)
        #expect(row["worker"] as? String == "h:7")
        #expect(row["fingerprint"] as? String == job.fingerprint.description)
    }

    @Test("the values another store writes (storedValues) are the row SQLite stores, value for value, NULLs and all")
    func storedValuesAreSQLitesRow() throws {
        let path = Self.temporaryPath()
        let backend = try SQLiteResults(path: path, readOnly: false)
        let results = (0..<4).map { index in
            var result = JobResult(
                answering: Job(batch: "b", id: index, attempt: index + 1, kind: index == 2 ? .sudoku : .rushhour, puzzle: "p\(index)",
                               solver: "bfs", maxStates: 9, timeoutSeconds: nil, source: "f:\(index + 1)"),
                worker: WorkerIdentity(host: "h\(index)", pid: 7), status: index == 3 ? .failed : .solved)
            result.moves = index == 3 ? nil : index * 3
            result.expectedMoves = index == 1 ? 4 : nil
            result.error = index == 3 ? "crashed: é→" : nil
            result.seconds = 0.25 * Double(index)
            result.cpuSeconds = 1e-7
            result.examined = 1 << 40
            result.termination = index == 3 ? .crashed : nil
            result.solverStats = index == 0 ? "{\"nodes\":1}" : nil
            return result
        }
        _ = try backend.store(results, storedAt: 1_800_000_000.125)
        let stored = try backend.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM results ORDER BY job").map { Array($0.databaseValues) }
        }
        #expect(stored == (try ResultColumn.storedValues(of: results, storedAt: 1_800_000_000.125)))
        #expect(stored.count == 4)
    }

    @Test("a duplicate is acknowledged as the row stored before it, which may have ended otherwise")
    func duplicateIsAcknowledgedAsTheStoredRow() throws {
        let store = try ResultStore(path: Self.temporaryPath())
        let job = Job(batch: "b", id: 0, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: 1)
        let cutOff = JobResult(answering: job, worker: WorkerIdentity(host: "h", pid: 1), status: .cutoff)
        var solved = JobResult(answering: job, worker: WorkerIdentity(host: "h", pid: 2), status: .solved)
        solved.moves = 3
        #expect(try store.store([cutOff]) == ResultStore.Stored(rows: [StoredJob(storing: cutOff)], inserted: 1, written: [0]))
        let again = try store.store([solved])
        #expect(again.inserted == 0)
        #expect(again.written.isEmpty)
        #expect(again.rows == [StoredJob(job: 0, fingerprint: job.fingerprint, status: .cutoff, wrong: false)])
    }

    @Test("another program's database, or a file that is not SQLite, is refused before anything is written to it")
    func foreignFilesAreRefusedUntouched() throws {
        let other = Self.temporaryPath()
        try DatabaseQueue(path: other).write { db in try db.execute(sql: "CREATE TABLE invoices (id INTEGER)") }
        #expect {
            _ = try ResultStore(path: other)
        } throws: { "\($0)".contains("another program's database (its tables: invoices)") }
        let tables = try DatabaseQueue(path: other).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(tables == ["invoices"])
        let journal = try DatabaseQueue(path: other).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journal == "delete")
        // As `report` and `export` open it: read-only, and the file byte for byte as it was.
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect(throws: (any Error).self) { _ = try ResultStore(path: other, readOnly: true) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        #expect(!FileManager.default.fileExists(atPath: other + "-wal"))

        let text = Self.temporaryPath()
        try String(repeating: "not a database\n", count: 100).write(toFile: text, atomically: true, encoding: .utf8)
        #expect {
            _ = try ResultStore(path: text)
        } throws: { "\($0)".contains("is not a SQLite database") }
        #expect(try String(contentsOfFile: text, encoding: .utf8).hasPrefix("not a database"))
    }

    @Test("tables merely named results and batches, with no record of gridlock's migrations, are another program's: refused, the file untouched")
    func lookalikeIsRefused() throws {
        let other = Self.temporaryPath()
        try DatabaseQueue(path: other).write { db in
            try db.execute(sql: "CREATE TABLE results (id INTEGER); CREATE TABLE batches (id INTEGER)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        for readOnly in [true, false] {
            #expect {
                _ = try ResultStore(path: other, readOnly: readOnly)
            } throws: { "\($0)".contains("another program's database (its tables: batches, results)") }
            #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before, "readOnly: \(readOnly)")
            #expect(!FileManager.default.fileExists(atPath: other + "-wal"))
        }
        // A record of migrations that are not all gridlock's is another program's too.
        try DatabaseQueue(path: other).write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('v1'), ('createInvoices')")
        }
        #expect(throws: (any Error).self) { _ = try ResultStore(path: other, readOnly: true) }
        // One of a newer gridlock's is said as such, not as another program's.
        let newer = Self.temporaryPath()
        _ = try ResultStore(path: newer)
        try DatabaseQueue(path: newer).write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
        #expect {
            _ = try ResultStore(path: newer, readOnly: true)
        } throws: { "\($0)".contains("was written by a newer gridlock (schema v99, which this build does not know)") }
    }

    /// A store holding the first `jobs` of StreamedReportTests' results, then changed by
    /// another program's SQL.
    static func store(jobs: Int, changedBy statements: [String]) throws -> ResultStore {
        let path = temporaryPath()
        let store = try ResultStore(path: path)
        _ = try store.store(Array(StreamedReportTests.results(batch: "b").prefix(jobs)))
        try DatabaseQueue(path: path).write { db in
            for statement in statements { try db.execute(sql: statement) }
        }
        return store
    }

    @Test("a row another program changed (unknown status or kind, text for a number) is named by batch and job and left out, never trapped on")
    func undecodableRowsAreNamed() throws {
        let store = try Self.store(jobs: 6, changedBy: [
            "UPDATE results SET status = 'weird' WHERE job = 1", "UPDATE results SET moves = 'abc' WHERE job = 2",
            "UPDATE results SET seconds = x'00' WHERE job = 3", "UPDATE results SET kind = 'chess' WHERE job = 4",
            // Numbers no run stores (the fuzzer's first find: a time past UInt64 in microseconds trapped).
            "UPDATE results SET seconds = 1e300 WHERE job = 5", "UPDATE results SET examined = -5 WHERE job = 0",
        ])
        var summaries = 0
        var undecodable: [UndecodableRow] = []
        try store.forEachRow(batch: nil, reading: .tables, undecodable: { undecodable.append($0) }) { _ in summaries += 1 }
        #expect(summaries == 0)
        #expect(undecodable.map(\.description) == [
            "batch b job 0: examined holds -5, not a count",
            "batch b job 1: status 'weird' is not one this build knows", "batch b job 2: moves holds text, not a number",
            "batch b job 3: seconds holds blob, not a number", "batch b job 4: kind 'chess' is not one this build knows",
            "batch b job 5: seconds holds 1e+300, not a time from 0 to 1e9",
        ])
    }

    @Test("a batch record another program left without its id is an error naming the column, never a trap")
    func undecodableBatchRecordThrows() throws {
        let store = try Self.store(jobs: 2, changedBy: [
            // A TEXT primary key takes NULL in SQLite: the fuzzer's second find.
            "INSERT INTO batches (id, started, host, cores, configuration, revision, solvers, jobs) VALUES (NULL, 's', 'h', 2, 'release', 'r', 'bfs', 2)",
            "UPDATE results SET status = x'ff' WHERE job = 1", "UPDATE results SET moves = 'abc' WHERE job = 0",
        ])
        #expect { _ = try store.batches() } throws: { "\($0)".contains("batches.id holds null") }
        // Job 0 is a problem (invalid) whose moves are text: an error, not a trap.
        #expect { _ = try store.problems(batch: nil, limit: 10) } throws: { "\($0)".contains("moves") }
        // The tally counts a status it cannot read as failed, never as success.
        #expect(try store.tally(batch: "b").byStatus[.failed] == 1)
    }

    @Test("a database whose results table differs from the list is refused at open, naming the column")
    func foreignTableIsRefused() throws {
        let path = Self.temporaryPath()
        _ = try ResultStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "ALTER TABLE results RENAME COLUMN states TO nodes") }
        #expect {
            _ = try ResultStore(path: path)
        } throws: { error in
            "\(error)".contains("'nodes INTEGER NOT NULL' where this build expects 'states INTEGER NOT NULL'")
        }
    }
}
