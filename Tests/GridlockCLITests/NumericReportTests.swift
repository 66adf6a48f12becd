// `report` and `export` as numbers: what they print parses back and adds up to what the
// database holds, counted by SQLite itself.

import Foundation
import Testing

@Suite("Numeric reports")
struct NumericReportTests {
    /// What a Python script prints with `sqlite3` and `csv` at hand (python3 is on every machine
    /// of this kind), given the database and standard input.
    static func python(_ script: String, database: String, stdin: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, database]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the memory columns tell solvers apart: each solver's own peak, and the RSS over the worker's idle set")
    func memoryTellsSolversApart() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("jobs.txt")
        try (try ClusterHarness.sample(count: 40, step: 449).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        let batch = try GridlockBinary.run(["batch", file.path, "--workers", "1", "--db", database, "--solver", "bfs,reference"])
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stdout.contains("memory mean") && batch.stdout.contains("RSS over idle") && !batch.stdout.contains("peak RSS"))
        let json = try GridlockBinary.run(["report", database, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let all = try #require(report["groups"] as? [[String: Any]]).filter { $0["band"] as? String == "all" }
        func field(_ solver: String, _ name: String) throws -> Double {
            let group = try #require(all.first { $0["solver"] as? String == solver })
            return try #require((group[name] as? NSNumber)?.doubleValue, "\(solver) \(name)")
        }
        // The worker's whole resident set is alike for both; the solvers' own peaks are not.
        #expect(try field("reference", "memory_mean_bytes") >= 20 * field("bfs", "memory_mean_bytes"))
        #expect(try field("bfs", "peak_rss_mean_bytes") > 10 * field("bfs", "memory_mean_bytes"))
        for solver in ["bfs", "reference"] {
            let above = try field(solver, "rss_above_idle_mean_bytes"), peak = try field(solver, "peak_rss_mean_bytes")
            #expect(above >= 0 && above < peak, "\(solver)")
        }
        let idle = try Self.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT MIN(worker_idle_rss_bytes) > 1000000, MIN(peak_rss_bytes >= worker_idle_rss_bytes) FROM results").fetchone())
            """, database: database)
        #expect(idle == "(1, 1)")
    }

    @Test("report --format json and export --format csv parse back, and their sums equal SQLite's own counts")
    func roundTrip() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let file = directory.appendingPathComponent("jobs.txt")
        let lines = try ClusterHarness.sample(count: 30, step: 97) + ["not a board at all"]
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        let batch = try GridlockBinary.run(["batch", file.path, "--workers", "1", "--db", database, "--solver", "bfs,bidirectional", "--batch", "rt"])
        #expect(batch.status == 1, "the unreadable line makes it 1: \(batch.stderr)")

        let json = try GridlockBinary.run(["report", database, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let groups = try #require(report["groups"] as? [[String: Any]])
        let all = groups.filter { $0["band"] as? String == "all" }
        let jobs = all.compactMap { $0["jobs"] as? Int }.reduce(0, +)
        let solved = all.compactMap { $0["solved"] as? Int }.reduce(0, +)
        let invalid = all.compactMap { $0["invalid"] as? Int }.reduce(0, +)
        let counts = try Self.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(*db.execute("SELECT COUNT(*), SUM(status = 'solved'), SUM(status = 'invalid') FROM results").fetchone())
            """, database: database)
        #expect(counts == "\(jobs) \(solved) \(invalid)")
        #expect(jobs == 62 && invalid == 2)
        // Numbers, not text: a mean in seconds, a count as an integer.
        let bfs = try #require(all.first { $0["solver"] as? String == "bfs" })
        #expect(bfs["wall_mean_seconds"] is Double && bfs["timed_jobs"] as? Int == 30)
        #expect((bfs["wall_mean_ci95_low_seconds"] as? Double ?? 1) <= (bfs["wall_mean_seconds"] as? Double ?? 0))
        // CPU beside wall: a solve's CPU time is positive and (one thread) not above its wall time by more than the clocks' grain.
        let cpu = try #require(bfs["cpu_mean_seconds"] as? Double)
        #expect(cpu > 0 && cpu <= (bfs["wall_mean_seconds"] as? Double ?? 0) * 1.05 + 1e-4, "\(bfs)")
        #expect(try #require(report["batches"] as? [[String: Any]]).first?["id"] as? String == "rt")
        #expect(try #require(report["throughput"] as? [[String: Any]]).contains { $0["by"] as? String == "host" })

        let csv = try GridlockBinary.run(["export", database, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let sums = try Self.python("""
            import csv, sqlite3, sys
            rows = list(csv.DictReader(sys.stdin))
            db = sqlite3.connect(sys.argv[1])
            count, seconds, examined = db.execute("SELECT COUNT(*), SUM(seconds), SUM(examined) FROM results").fetchone()
            print(len(rows) == count, abs(sum(float(r["seconds"]) for r in rows) - seconds) < 1e-9,
                  sum(int(r["examined"]) for r in rows) == examined, all(r["storedAt"] for r in rows))
            """, database: database, stdin: csv.stdout)
        #expect(sums == "True True True True")

        // A hostile row: a first solver's times so small that the second's ratio is infinite.
        // JSON has no infinity: the number is null, and the report still parses.
        _ = try Self.python(
            "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1]); db.execute(\"UPDATE results SET seconds = 1e-320 WHERE solver = 'bfs'\"); db.commit()",
            database: database)
        let hostile = try GridlockBinary.run(["report", database, "--format", "json"])
        #expect(hostile.status == 0, "\(hostile.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(hostile.stdout.utf8))) != nil, "\(hostile.stdout.prefix(400))")
    }

    @Test("a batch the database does not hold is an error naming the batches it does hold, not empty tables")
    func unknownBatch() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let file = directory.appendingPathComponent("jobs.txt")
        try (try ClusterHarness.sample(count: 2).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        #expect(try GridlockBinary.run(["batch", file.path, "--workers", "1", "--db", database, "--batch", "known"]).status == 0)
        for command in ["report", "export"] {
            let output = try GridlockBinary.run([command, database, "--batch", "nosuch"])
            #expect(output.status == 1 && output.stderr.contains("no batch named nosuch") && output.stderr.contains("known"), "\(output.stderr)")
        }
    }
}

@Suite("Bench as numbers")
struct BenchNumbersTests {
    @Test("bench --format json holds every sample, paired ratios with intervals, and no states per second for IDA*")
    func samples() throws {
        let output = try GridlockBinary.run([
            "bench", "data/rushhour/rush_18k.txt", "--every", "900", "--limit", "20", "--warmup", "2", "--repeats", "2", "--solver", "bfs,bidirectional",
            "--format", "json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let tables = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let solvers = try #require(tables["solvers"] as? [[String: Any]])
        let samples = try #require(tables["samples"] as? [[String: Any]])
        #expect(solvers.map { $0["solver"] as? String } == ["bfs", "bidirectional"])
        // 20 puzzles, 2 passes, 2 solvers.
        #expect(samples.count == 80)
        #expect(Set(samples.compactMap { $0["pass"] as? Int }) == [1, 2])
        let bidirectional = solvers[1]
        let ratio = try #require(bidirectional["wall_vs_first"] as? Double)
        #expect(try #require(bidirectional["wall_vs_first_ci95_low"] as? Double) <= ratio)
        #expect(ratio <= (bidirectional["wall_vs_first_ci95_high"] as? Double ?? 0))
        // CPU beside wall, from the same samples: each sample's CPU time is there, and the CPU ratio is theirs.
        let cpuRatio = try #require(bidirectional["cpu_vs_first"] as? Double)
        #expect(cpuRatio > 0 && samples.allSatisfy { ($0["cpu_seconds"] as? Double ?? -1) >= 0 && $0["wall_seconds"] is Double })
        #expect(bidirectional["pairs"] as? Int == 40)

        let tiles = try GridlockBinary.run(
            ["bench", "-", "--warmup", "0", "--solver", "idastar,astar", "--format", "json"], stdin: "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n")
        #expect(tiles.status == 0, "\(tiles.stderr)")
        let rows = try #require((try JSONSerialization.jsonObject(with: Data(tiles.stdout.utf8)) as? [String: Any])?["solvers"] as? [[String: Any]])
        #expect(rows.first?["states_per_second"] is NSNull, "IDA* keeps no table of states: \(tiles.stdout)")
        #expect(rows.last?["states_per_second"] is Double, "A* does: \(tiles.stdout)")
    }

    @Test("a solver of another kind than the puzzles is refused, not run as a row of zeros")
    func wrongKind() throws {
        let output = try GridlockBinary.run(["bench", "data/rushhour/rush_18k.txt", "--every", "2000", "--solver", "bfs,norvig"])
        #expect(output.status == 64 && output.stderr.contains("unknown solver 'norvig'"), "\(output.stderr)")
    }
}

@Suite("Compare")
struct CompareCommandTests {
    @Test("compare prints a row per solver and band as numbers; a solver made 3x slower is slower, and --fail-above exits 1")
    func slowedSolver() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let file = directory.appendingPathComponent("jobs.txt")
        try (try ClusterHarness.sample(count: 60, step: 150).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        for (name, environment) in [("base", [String: String]()), ("slow", try ClusterHarness.faults("slow:bidirectional:3"))] {
            let batch = try GridlockBinary.run(
                ["batch", file.path, "--workers", "1", "--db", database, "--batch", name, "--solver", "bfs,bidirectional"], environment: environment)
            #expect(batch.status == 0, "\(batch.stderr)")
        }
        let json = try GridlockBinary.run(["compare", database, "--baseline", "base", "--batch", "slow", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let groups = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["groups"] as? [[String: Any]])
        let slowed = try #require(groups.first { $0["solver"] as? String == "bidirectional" && $0["band"] as? String == "all" })
        #expect(slowed["verdict"] as? String == "slower" && slowed["pairs"] as? Int == 60, "\(slowed)")
        // The fault triples the solve, not the job's fixed costs: 1.89x was measured on a
        // loaded CI machine, so the bound is what "clearly slower" needs, not the factor.
        #expect((slowed["ratio"] as? Double ?? 0) > 1.5, "\(slowed)")
        let gate = try GridlockBinary.run(["compare", database, "--baseline", "base", "--batch", "slow", "--fail-above", "50"])
        #expect(gate.status == 1 && gate.stderr.contains("slower by more than 50.0%"), "\(gate.stderr)")

        // The same verdict under load (the new batch's machine at 99 on its cores by the end)
        // and on another code path (the baseline's workers ran x86-64-v4): marked, both said.
        _ = try NumericReportTests.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE batches SET recipe = json_set(recipe, '$.loadAtEnd', 99.0) WHERE id = 'slow'")
            db.execute("UPDATE machines SET code_path = 'x86-64-v4' WHERE batch = 'base'")
            db.execute("UPDATE machines SET code_path = 'portable' WHERE batch = 'slow'")
            db.commit()
            """, database: database)
        let marked = try GridlockBinary.run(["compare", database, "--baseline", "base", "--batch", "slow", "--format", "json"])
        let markedGroups = try #require((try JSONSerialization.jsonObject(with: Data(marked.stdout.utf8)) as? [String: Any])?["groups"] as? [[String: Any]])
        let markedRow = try #require(markedGroups.first { $0["solver"] as? String == "bidirectional" && $0["band"] as? String == "all" })
        // (Other tests' load may have added the baseline's own: the two named are what matters.)
        let caveats = Set((markedRow["caveats"] as? String ?? "").components(separatedBy: "; "))
        #expect(markedRow["verdict"] as? String == "slower" && caveats.isSuperset(of: ["load", "code path"]), "\(markedRow)")
        #expect(marked.stderr.contains("warning: load: new batch: ") && marked.stderr.contains("warning: code path: the baseline ran x86-64-v4, the new batch portable"), "\(marked.stderr)")
        let text = try GridlockBinary.run(["compare", database, "--baseline", "base", "--batch", "slow"])
        #expect(text.stdout.contains("slower *") && text.stdout.contains("* given under warnings (load, code path"), "\(text.stdout)")

        // Two batches in the database and none named: which is which cannot be guessed.
        let unnamed = try GridlockBinary.run(["compare", database])
        #expect(unnamed.status == 1 && unnamed.stderr.contains("name the baseline"), "\(unnamed.stderr)")
    }
}
