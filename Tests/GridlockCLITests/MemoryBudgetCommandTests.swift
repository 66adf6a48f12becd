// `--memory-budget` from the command line to the search: `solve` stops at it, and `batch` hands
// each worker its share, so a job stops there too and says why in its row.

import Foundation
import Testing

@Suite("Memory budget commands")
struct MemoryBudgetCommandTests {
    /// A tilt board whose search holds 177,272 states (about 45 MB) to reach its goal.
    static let tilt = "ab*cd*ef/*.*.*.*./gh*ab*cd/*.*.*.*./ef*gh*.*"

    @Test("solve stops at --memory-budget with status cutoff, reason memory-budget, and the states reached; exit 2")
    func solveStops() throws {
        let cut = try GridlockBinary.run(["solve", Self.tilt, "--memory-budget", "0.004"])
        #expect(cut.status == 2, "\(cut.stderr)")
        #expect(cut.stdout.contains("cut off (memory-budget) after"), "\(cut.stdout)")
        let refused = try GridlockBinary.run(["bench", "data/samples/unblockme.txt", "--memory-budget", "inf"])
        #expect(refused.status == 64 && refused.stderr.contains("--memory-budget must be a number of GiB"))
        // A share of nothing would make every worker refuse its own flag and die at start.
        let starved = try GridlockBinary.run(["batch", "data/samples/unblockme.txt", "--workers", "2", "--memory-budget", "1e-9"])
        #expect(starved.status == 64 && starved.stderr.contains("leaves less than 1 MiB to each of the 2 worker processes"), "\(starved.stderr)")
    }

    @Test("generate tilt runs each try's searches within --memory-budget: under a budget no search fits, no board is found")
    func generateTiltHonoursTheBudget() throws {
        let arguments = ["generate", "tilt", "--moves", "6", "--count", "1", "--seed", "3", "--tries", "20"]
        let found = try GridlockBinary.run(arguments)
        #expect(found.status == 0 && found.stdout.contains("gen-3-1:moves=6"), "\(found.stderr)")
        let starved = try GridlockBinary.run(arguments + ["--memory-budget", "0.00001"])
        #expect(starved.status == 1 && starved.stderr.contains("no board met --moves 6"), "\(starved.stderr)")
    }

    @Test("analyze refuses a 15-puzzle before exploring (10^13 positions), and a cluster past --memory-budget or --timeout as it explores")
    func analyzeRefuses() throws {
        let started = Date()
        let fifteen = try GridlockBinary.run(["analyze", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"])
        #expect(fifteen.status == 1 && fifteen.stdout.contains("10461394944000 states are reachable"), "\(fifteen.stdout)")
        #expect(Date().timeIntervalSince(started) < 10)
        let cluster = try GridlockBinary.run(["analyze", "HBBKooHooKCCoIAALMoIDDLMEEJooNxoJGGN", "--memory-budget", "0.004"])
        #expect(cluster.status == 1 && cluster.stdout.contains("would pass the memory budget of 4 MiB"), "\(cluster.stdout)")
        let timed = try GridlockBinary.run(["analyze", "HBBKooHooKCCoIAALMoIDDLMEEJooNxoJGGN", "--timeout", "0.0005"])
        #expect(timed.status == 1 && timed.stdout.contains("the time limit passed after"), "\(timed.stdout)")
    }

    @Test("batch gives its workers a share of --memory-budget: the job is cut off there, its row saying why")
    func batchSharesTheBudget() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let input = directory.appendingPathComponent("tilt.txt")
        try (Self.tilt + "\n").write(to: input, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        // 8 MiB for two workers: 4 MiB each, as in `solve` above.
        let batch = try GridlockBinary.run(["batch", input.path, "--workers", "2", "--memory-budget", "0.008", "--db", database])
        #expect(batch.status == 2, "\(batch.stderr)")
        let rows = try BatchCommandTests.export(database)
        #expect(rows[0]?["status"] as? String == "cutoff")
        #expect((rows[0]?["error"] as? String)?.hasPrefix("cut off (memory-budget) after") == true, "\(rows)")
    }
}
