// The PostgreSQL store against SQLite's: the same groups stored in both give the same
// acknowledgements, rows, tallies, records and machines; and what only a server does
// (refusals, NUL, read-only readers, two writers, a wrong password) is checked against a real one.

#if PostgreSQL
import Foundation
import GRDB
@testable import GridlockCluster
import GridlockPostgres
import GridlockWire
import Testing

@Suite("PostgreSQL store", .enabled(if: PostgresServer.shared != nil))
struct PostgresResultsTests {
    static var server: PostgresServer { PostgresServer.shared! }

    static func stores() throws -> (sqlite: SQLiteResults, postgres: PostgresResults, url: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pg-twin-\(UUID().uuidString.prefix(8)).sqlite").path
        let url = try server.database(icu: true)
        return (try SQLiteResults(path: path, readOnly: false), try PostgresResults(try PostgresURL(url), readOnly: false), url)
    }

    static func result(_ job: Int, batch: String = "b", fingerprint salt: String = "", status: JobStatus = .solved) -> JobResult {
        var result = JobResult(
            answering: Job(batch: batch, id: job, attempt: 1, kind: job % 3 == 0 ? .tilt : .rushhour, puzzle: "p\(job)\(salt)", solver: job % 2 == 0 ? "bfs" : "astar",
                           maxStates: 9, timeoutSeconds: nil, source: "f:\(job + 1)"),
            worker: WorkerIdentity(host: "h\(job % 4)", pid: 7), status: status)
        result.moves = status == .solved ? job % 11 : nil
        result.expectedMoves = job % 5 == 0 ? job % 11 : (job % 7 == 0 ? 99 : nil)
        result.seconds = Double(job) * 0.001 + 1e-9
        result.cpuSeconds = Double(job) * 0.0009
        result.examined = job * 1_000
        result.peakRSSBytes = 1 << 20
        result.error = status == .failed ? "crashed: é→ \(job)" : nil
        return result
    }

    /// Every reader's view of a store, as text: what must be equal for the two.
    static func view(_ backend: any ResultsBackend, batch: String) throws -> [String] {
        let store = ResultStore(backend: backend)
        var lines: [String] = []
        try store.forEachRow(batch: nil, reading: .everything, undecodable: { lines.append("undecodable \($0)") }) { row in
            lines.append(StoredRow.csvHeader + "\n" + row.csvRecord)
        }
        let tally = try store.tally(batch: batch)
        lines.append("tally \(JobStatus.allCases.map { "\($0): \(tally.byStatus[$0, default: 0])" }), \(tally.wrong) wrong")
        lines.append("acks \(try store.storedJobs(batch: batch, from: 3, limit: 5_000))")
        lines.append("names \(try store.batchNames())")
        lines.append("batches \(try store.batches())")
        lines.append("machines \(try store.machines().map { "\($0.batch) \($0.machine)" })")
        lines.append("problems \(try store.problems(batch: nil, limit: 3).map(\.csvRecord))")
        lines.append("seconds \(try store.jobSeconds(batch: batch).sorted())")
        return lines
    }

    @Test("the same groups stored in both: the same acknowledgements, rows, tally, records and machines")
    func sameAsSQLite() throws {
        let (sqlite, postgres, _) = try Self.stores()
        let record = BatchRecord(
            batch: "b", started: "2026-12-03T10:00:00Z", host: "h", cores: 2, configuration: "release", revision: "r", solvers: "", jobs: 0,
            limits: JobLimits(cpuSeconds: 2, memoryBytes: nil), wallLimitSeconds: nil, recipe: nil)
        let machine = MachineRecord.current()
        for backend in [sqlite, postgres] as [any ResultsBackend] {
            try backend.record(record)
            try backend.record(record)
            try backend.record(machine, batch: "b")
            try backend.record(machine, batch: "_z")
        }
        // Batches of names whose byte order is not a locale's: SQLite's order must hold.
        let groups: [[JobResult]] = [
            (0..<50).map { Self.result($0) },
            // Repeats inside one group: the same job, and a changed one (another fingerprint).
            [Self.result(50), Self.result(50), Self.result(3, fingerprint: "changed"), Self.result(51, status: .failed), Self.result(3)],
            (0..<3).map { Self.result($0, batch: "B-upper") } + (0..<3).map { Self.result($0, batch: "a-lower") } + [Self.result(0, batch: "é")],
            (0..<2).map { Self.result($0, batch: "_z") },
            // Stored before: the same jobs again (acknowledged as their rows), one changed.
            (0..<10).map { Self.result($0) } + [Self.result(20, fingerprint: "changed")],
        ]
        for group in groups {
            let left = try sqlite.store(group, storedAt: 1_800_000_000.5)
            let right = try postgres.store(group, storedAt: 1_800_000_000.5)
            #expect(left == right)
        }
        try sqlite.recordTotal(batch: "b", jobs: 52, solvers: nil)
        try postgres.recordTotal(batch: "b", jobs: 52, solvers: nil)
        #expect(try sqlite.forget(batch: "a-lower", from: 1) == postgres.forget(batch: "a-lower", from: 1))
        let left = try Self.view(sqlite, batch: "b")
        let right = try Self.view(postgres, batch: "b")
        #expect(left.count == right.count)
        for (one, other) in zip(left, right) where one != other {
            Issue.record("SQLite:\n\(one.prefix(400))\nPostgreSQL:\n\(other.prefix(400))")
        }
    }

    @Test("more rows than one statement or one page holds, in order")
    func manyRows() throws {
        let (sqlite, postgres, _) = try Self.stores()
        let group = (0..<5_000).map { Self.result($0) }
        #expect(try sqlite.store(group, storedAt: 1_800_000_000) == postgres.store(group, storedAt: 1_800_000_000))
        var jobs: [Int] = []
        try ResultStore(backend: postgres).forEachRow(batch: "b", reading: .tables, undecodable: { Issue.record("\($0)") }) { jobs.append($0.job) }
        #expect(jobs == Array(0..<5_000))
        #expect(try postgres.acknowledgements(batch: "b", from: 0, limit: 10_000).count == 5_000)
    }

    @Test("a NUL in a text is stored as U+FFFD: the group is stored, the sink goes on")
    func nul() throws {
        let (_, postgres, _) = try Self.stores()
        var result = Self.result(0, status: .failed)
        result.error = "before\u{0}after"
        #expect(try postgres.store([result], storedAt: 1_800_000_000).inserted == 1)
        #expect(try ResultStore(backend: postgres).problems(batch: "b", limit: 1).first?.error == "before\u{FFFD}after")
    }

    @Test("a reader changes nothing, and an empty database has no results to read")
    func readers() throws {
        let url = try Self.server.database()
        #expect { _ = try PostgresResults(try PostgresURL(url), readOnly: true) } throws: { "\($0)".contains("holds no results yet") }
        _ = try PostgresResults(try PostgresURL(url), readOnly: false)
        let reader = try PostgresResults(try PostgresURL(url), readOnly: true)
        #expect { try reader.record(MachineRecord.current(), batch: "b") } throws: { "\($0)".contains("read-only") }
    }

    @Test("another program's tables, and a newer gridlock's schema, are refused, naming them")
    func foreign() throws {
        let other = try Self.server.database()
        let name = PostgresServer.name(of: other)
        try Self.server.psql("CREATE TABLE invoices (id int)", database: name)
        #expect { _ = try PostgresResults(try PostgresURL(other), readOnly: false) } throws: { "\($0)".contains("another program's tables (invoices)") }
        #expect(try Self.server.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'results'", database: name).hasPrefix("0"))

        let newer = try Self.server.database()
        let newerName = PostgresServer.name(of: newer)
        _ = try PostgresResults(try PostgresURL(newer), readOnly: false)
        try Self.server.psql("INSERT INTO gridlock_migrations VALUES ('v6')", database: newerName)
        #expect { _ = try PostgresResults(try PostgresURL(newer), readOnly: true) } throws: { "\($0)".contains("newer gridlock (schema v6") }
    }

    @Test("a wrong password, a database that is not there, a port nobody listens on: each names the server, never the password")
    func refusedConnections() throws {
        let url = try Self.server.database()
        let name = PostgresServer.name(of: url)
        let cases = [
            (Self.server.tcpURL(name, password: "wrong-guess-SECRET"), "user or password was refused"),
            (Self.server.tcpURL("nosuchdb", password: PostgresServer.password), "no such database"),
            ("postgresql://gridlock:\(PostgresServer.password)@127.0.0.1:1/\(name)?sslmode=disable&connect_timeout=3", "cannot reach the server"),
        ]
        for (text, says) in cases {
            do {
                _ = try PostgresResults(try PostgresURL(text), readOnly: true)
                Issue.record("\(text) connected")
            } catch {
                #expect("\(error)".contains(says), "\(error)")
                #expect("\(error)".contains("postgresql://gridlock@127.0.0.1:"), "\(error)")
                #expect(!"\(error)".contains("SECRET"), "\(error)")
            }
        }
        // The right password over TCP works.
        _ = try PostgresResults(try PostgresURL(Self.server.tcpURL(name, password: PostgresServer.password)), readOnly: false)
    }

    @Test("a server that stops answering (its process stopped) is an error naming it within the timeout, not a sink that waits for good")
    func stoppedServer() throws {
        let url = try Self.server.database() + "&timeout=2"
        let backend = try PostgresResults(try PostgresURL(url), readOnly: false)
        let name = PostgresServer.name(of: url)
        let pids = try Self.server.psql("SELECT pid FROM pg_stat_activity WHERE datname = '\(name)' AND pid <> pg_backend_pid()")
            .split(separator: "\n").compactMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
        #expect(!pids.isEmpty)
        for pid in pids { kill(pid, SIGSTOP) }
        defer { for pid in pids { kill(pid, SIGCONT) } }
        let started = Date()
        #expect { _ = try backend.store([Self.result(1)], storedAt: 1_800_000_000) } throws: { "\($0)".contains("no answer in 2 s") }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("two writers storing overlapping groups at once: every job once, none lost, no deadlock")
    func twoWriters() throws {
        let url = try Self.server.database()
        let first = try PostgresResults(try PostgresURL(url), readOnly: false)
        let second = try PostgresResults(try PostgresURL(url), readOnly: false)
        let groups = (0..<20).map { start in (start * 50..<start * 50 + 200).map { Self.result($0) } }
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let backend = writer == 0 ? first : second
            // The second writer's groups backwards, each shuffled: only the store's own order
            // of rows keeps two transactions from waiting on each other.
            for group in writer == 0 ? groups : groups.reversed().map({ $0.shuffled() }) {
                do { _ = try backend.store(group, storedAt: 1_800_000_000) } catch { Issue.record("writer \(writer): \(error)") }
            }
        }
        let jobs = try first.acknowledgements(batch: "b", from: 0, limit: 10_000).map(\.job)
        #expect(jobs == Array(0..<1_150))
    }
}
#endif
