// Issue 44's acceptance for PostgreSQL, through the real binary: batches stored in PostgreSQL
// by `gridlock batch --db postgresql://...`, then `report`, `compare` and `export` print the
// same bytes from there as from a SQLite copy of the same rows. And the attacks an operator
// meets: the server stopping under a running batch.

#if PostgreSQL
import Foundation
import GRDB
import GridlockCluster
import Testing

@Suite("PostgreSQL through the commands", .enabled(if: PostgresServer.shared != nil), .serialized)
struct PostgresCommandTests {
    static var server: PostgresServer { PostgresServer.shared! }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary built with the trait: GRIDLOCK_BINARY, or beside the tests.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["GRIDLOCK_BINARY"] { return path }
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return [besideTests, besideTests.deletingLastPathComponent()].map { $0.appendingPathComponent("gridlock").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "gridlock"
    }()

    static func gridlock(_ arguments: [String], faults: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if let faults { process.environment = ProcessInfo.processInfo.environment.merging(["GRIDLOCK_FAULT_INJECTION": faults]) { $1 } }
        process.currentDirectoryURL = repository
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pg-out-\(UUID().uuidString.prefix(8))")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("pg-err-\(UUID().uuidString.prefix(8))")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8), try String(contentsOf: errors, encoding: .utf8))
    }

    /// A SQLite database made by gridlock, holding exactly the rows of the PostgreSQL one.
    static func sqliteCopy(of url: String, database name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pg-copy-\(UUID().uuidString.prefix(8)).sqlite").path
        _ = try ResultStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for table in ["batches", "results", "machines"] {
                // Each table's rows as JSON from psql, inserted one by one.
                let info = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info('\(table)') ORDER BY cid")
                let columns = info.map { $0["name"] as String }
                let types = info.map { $0["type"] as String }
                // Numbers as text: JSON's numbers would lose a 64-bit fingerprint's low bits.
                let cells = columns.map { "\($0)::text" }.joined(separator: ", ")
                let json = try server.psql("SELECT coalesce(json_agg(json_build_array(\(cells))), '[]') FROM \(table)", database: name)
                let rows = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) as! [[Any]]
                for row in rows {
                    // By the column's declared type, as SQLite's own insert would bind it.
                    let values: [DatabaseValue] = zip(row, types).map { value, type in
                        guard let text = value as? String else { return .null }
                        switch type {
                        case "REAL": return Double(text)!.databaseValue
                        case "INTEGER": return Int64(text)!.databaseValue
                        default: return text.databaseValue
                        }
                    }
                    try db.execute(sql: "INSERT INTO \(table) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))", arguments: StatementArguments(values))
                }
            }
        }
        return path
    }

    @Test("two batches stored in PostgreSQL: report, compare and export print the same from there as from SQLite")
    func sameFigures() throws {
        let url = try Self.server.database(icu: true)
        let name = PostgresServer.name(of: url)
        for batch in ["monday", "tuesday"] {
            let run = try Self.gridlock(["batch", "data/samples/unblockme.txt", "--workers", "2", "--solver", "bfs,astar", "--db", url, "--batch", batch])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("results in postgresql://gridlock@/\(name)"), "\(run.stderr)")
        }
        // Run again: every job is stored already, nothing new.
        let again = try Self.gridlock(["batch", "data/samples/unblockme.txt", "--workers", "1", "--solver", "bfs,astar", "--db", url, "--batch", "monday"])
        #expect(again.status == 0, "\(again.stderr)")
        let copy = try Self.sqliteCopy(of: url, database: name)
        let readers: [[String]] = [
            ["report", "DB"], ["report", "DB", "--batch", "monday", "--format", "csv"], ["report", "DB", "--format", "json"],
            ["export", "DB"], ["export", "DB", "--format", "csv"],
            ["compare", "DB", "--baseline", "monday", "--batch", "tuesday"],
            ["compare", "DB", "--baseline", "monday", "--batch", "tuesday", "--format", "json"],
        ]
        for reader in readers {
            let fromPostgres = try Self.gridlock(reader.map { $0 == "DB" ? url : $0 })
            let fromSQLite = try Self.gridlock(reader.map { $0 == "DB" ? copy : $0 })
            #expect(fromPostgres.status == fromSQLite.status, "\(reader): \(fromPostgres.stderr)")
            #expect(!fromPostgres.stdout.isEmpty, "\(reader)")
            #expect(fromPostgres.stdout == fromSQLite.stdout, "\(reader): PostgreSQL\n\(fromPostgres.stdout.prefix(1_500))\nSQLite\n\(fromSQLite.stdout.prefix(1_500))")
        }
        // Mixed: PostgreSQL's monday against SQLite's tuesday.
        let mixed = try Self.gridlock(["compare", url, copy, "--baseline", "monday", "--batch", "tuesday"])
        #expect(mixed.status == 0, "\(mixed.stderr)")
    }

    @Test("the server stopped under a batch: the batch stops naming it, never the password; it resumes once the server is back, every job once")
    func serverStops() throws {
        let server = try PostgresServer.own()
        defer { server.stop() }
        let name = PostgresServer.name(of: try server.database())
        // Over TCP with the password, so that a leak of it would show.
        // A statement gets 10 s: a connection that never learns its server died ends then.
        let url = server.tcpURL(name, password: PostgresServer.password) + "&connect_timeout=5&timeout=10"
        // Each job takes at least 150 ms: the server stops once the first results are stored,
        // with most of the batch to go.
        let halted = DispatchSemaphore(value: 0)
        let stopper = Thread {
            defer { halted.signal() }
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if let count = try? server.psql("SELECT count(*) FROM results", database: name), (Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0 { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            do { try server.halt() } catch { Issue.record("halt: \(error)") }
        }
        stopper.start()
        let started = Date()
        let stopped = try Self.gridlock(["batch", "data/samples/unblockme.txt", "--workers", "1", "--db", url, "--batch", "b"], faults: "pace:150")
        #expect(stopped.status != 0, "\(stopped.stderr)")
        let took = Date().timeIntervalSince(started)
        // Under the statement deadline (10 s): a closed connection is seen at once, not waited on.
        #expect(took < 8, "the batch took \(took) s to stop")
        #expect(stopped.stderr.contains("postgresql://gridlock@127.0.0.1:\(server.port)/\(name)"), "\(stopped.stderr)")
        #expect(!(stopped.stderr + stopped.stdout).contains("SECRET"), "\(stopped.stderr)")
        halted.wait()
        try server.restart()
        let stored = Int(try server.psql("SELECT count(*) FROM results", database: name).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let resumed = try Self.gridlock(["batch", "data/samples/unblockme.txt", "--workers", "1", "--db", url, "--batch", "b"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let jobs = Int(try server.psql("SELECT jobs FROM batches WHERE id = 'b'", database: name).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let counts = try server.psql("SELECT count(*), count(DISTINCT job) FROM results WHERE batch = 'b'", database: name)
        #expect(stored > 0 && stored < jobs, "the server stopped after \(stored) of \(jobs) jobs were stored")
        #expect(counts.trimmingCharacters(in: .whitespacesAndNewlines) == "\(jobs)|\(jobs)")
    }
}
#endif
