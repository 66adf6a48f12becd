// A batch records what it takes to run it again (issue 43 point 3): `report` prints it, and
// `gridlock rerun` repeats the batch from the record alone, with the same solver set, limits and
// outside solver commands; an outside solver's new version is warned of, and marks `compare`.

import Foundation
import Testing

@Suite("rerun", .serialized)
struct RerunCommandTests {
    /// An outside solver that says its version and fails every puzzle (the recipe, not its
    /// answers, is under test): its version line is the script's first argument.
    static func writeSolver(_ path: String, version: String) throws {
        try """
            if [ "$1" = "--version" ]; then touch "$0.asked"; echo '\(version)'; exit 0; fi
            exit 1
            """.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func recipe(_ database: String, _ batch: String) throws -> String {
        try NumericReportTests.python("""
            import sqlite3, sys, json
            db = sqlite3.connect(sys.argv[1])
            row = db.execute("SELECT recipe, solvers, time_limit_seconds, wall_limit_seconds, memory_limit_bytes FROM batches WHERE id = ?", (sys.stdin.read(),)).fetchone()
            recipe = json.loads(row[0])
            print(json.dumps([recipe["options"], recipe["files"], recipe["outsideSolvers"], recipe["paired"], recipe["repeats"], recipe["workers"], row[1:]]))
            """, database: database, stdin: batch)
    }

    @Test("report prints a batch's command, measurement and outside solvers; rerun repeats it from the record; a new solver version is warned of and marks compare")
    func recordedAndRerun() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("jobs.txt")
        try (try ClusterHarness.sample(count: 4, step: 300).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let solver = directory.appendingPathComponent("solver.sh").path
        try Self.writeSolver(solver, version: "fake-solver 1.2")
        let database = directory.appendingPathComponent("results.sqlite").path
        let options = ["--solver", "bfs,fake", "--external", "rushhour:fake=sh \(solver)", "--time-limit", "2", "--memory-limit", "64M", "--paired", "--repeats", "2", "--workers", "1"]
        let first = try GridlockBinary.run(["batch", file.path, "--db", database, "--batch", "first"] + options)
        #expect(first.status == 2, "\(first.stderr)")

        let report = try GridlockBinary.run(["report", database])
        #expect(report.stdout.contains("command: gridlock batch --solver bfs,fake --external 'rushhour:fake=sh \(solver)'"), "\(report.stdout)")
        #expect(report.stdout.contains("--time-limit 2.0 --memory-limit 65536K --paired --repeats 2 --workers 1 --memory-budget "), "\(report.stdout)")
        #expect(report.stdout.contains(" \(file.path)\n"), "\(report.stdout)")
        #expect(report.stdout.contains("measured: 1 workers, not pinned, paired, 2 runs a job; load "), "\(report.stdout)")
        #expect(report.stdout.contains("outside solver rushhour:fake: sh \(solver); version: fake-solver 1.2"), "\(report.stdout)")
        #expect(report.stdout.contains("limits CPU 2 s, wall 5 s, memory 64 MiB"), "\(report.stdout)")
        let json = try GridlockBinary.run(["report", database, "--format", "json"])
        let batches = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["batches"] as? [[String: Any]])
        #expect((batches.first?["command"] as? String)?.hasPrefix("gridlock batch --solver bfs,fake") == true && batches.first?["repeats"] as? Int == 2, "\(batches)")

        // The rerun: same solvers, limits, commands, files and measurement, as a new batch.
        // A dry run runs nothing of the record, not even the solver's --version.
        #expect(FileManager.default.fileExists(atPath: solver + ".asked"), "the batch asked the solver its version")
        try FileManager.default.removeItem(atPath: solver + ".asked")
        let dry = try GridlockBinary.run(["rerun", database, "--dry-run"])
        #expect(dry.status == 0 && dry.stderr.contains("--batch first-rerun --") && dry.stdout.isEmpty, "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: solver + ".asked"), "a dry run ran the recorded solver")
        // A name the database has would resume that batch: refused.
        let taken = try GridlockBinary.run(["rerun", database, "--batch", "first", "--as", "first"])
        #expect(taken.status == 1 && taken.stderr.contains("has a batch named first already"), "\(taken.stderr)")
        let rerun = try GridlockBinary.run(["rerun", database, "--batch", "first", "--as", "second"])
        #expect(rerun.status == 2 && !rerun.stderr.contains("warning"), "\(rerun.stderr)")
        #expect(try Self.recipe(database, "second") == Self.recipe(database, "first"))
        #expect(try Self.recipe(database, "first").contains("fake-solver 1.2"))

        // A new build of the outside solver: run, warned of, and compare marks its verdicts.
        try Self.writeSolver(solver, version: "fake-solver 1.3")
        let third = try GridlockBinary.run(["rerun", database, "--batch", "first", "--as", "third"])
        #expect(third.stderr.contains("fake's --version said 'fake-solver 1.2' then and says 'fake-solver 1.3' now"), "\(third.stderr)")
        let compare = try GridlockBinary.run(["compare", database, "--baseline", "first", "--batch", "third"])
        #expect(compare.stderr.contains("warning: solver commands: rushhour:fake was"), "\(compare.stderr)")

        // What cannot be rerun says why: a batch recorded before recipes, and a lost input.
        _ = try NumericReportTests.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE batches SET recipe = NULL WHERE id = 'first'")
            db.commit()
            """, database: database)
        let old = try GridlockBinary.run(["rerun", database, "--batch", "first"])
        #expect(old.status == 1 && old.stderr.contains("recorded before batches kept what it takes to run them again"), "\(old.stderr)")
        #expect(try GridlockBinary.run(["report", database, "--batch", "first"]).stdout.contains("recorded before batches kept their recipe"))
        try FileManager.default.removeItem(at: file)
        let gone = try GridlockBinary.run(["rerun", database, "--batch", "second"])
        #expect(gone.status == 1 && gone.stderr.contains("input is gone: \(file.path)"), "\(gone.stderr)")
        let unknown = try GridlockBinary.run(["rerun", database, "--batch", "nosuch"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no batch named nosuch"), "\(unknown.stderr)")
    }
}
