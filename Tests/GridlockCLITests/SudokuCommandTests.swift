// Sudoku end to end: `solve`, `hint`, `generate` and `batch` on the real binary.

import Foundation
import Testing

@Suite("Sudoku commands", .serialized)
struct SudokuCommandTests {
    static let grid2 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("generate sudoku's default givens follow --size: a 4x4 grid gets 6, not 9x9's 25")
    func givensFollowTheSize() throws {
        let output = try GridlockBinary.run(["generate", "sudoku", "--size", "4x4", "--count", "2"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").filter { !$0.hasPrefix("//") }
        #expect(lines.count == 2 && lines.allSatisfy { $0.count == 16 }, "\(output.stdout)")
        #expect(output.stdout.contains("--givens 6 "))
    }

    @Test("a 4x4 grid names the solver that ran: the default (bands) asked for, norvig solved it (it once named the first alone)")
    func fallbackIsNamed() throws {
        let output = try GridlockBinary.run(["solve", ".2.11..3...2..1.", "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try Self.objects(output.stdout).first)
        #expect(object["solver"] as? String == "bands" && object["solvedBy"] as? String == "norvig", "\(output.stdout)")
    }

    @Test("a search stopped by --timeout says timeout, not cancelled")
    func timeoutIsNamed() throws {
        let output = try GridlockBinary.run(["solve", "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo", "--solver", "bfs", "--timeout", "0.0001", "--format", "json"])
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stdout.contains("\"cutoffReason\":\"timeout\""), "\(output.stdout)")
    }

    @Test("an 81-character line is told to be a Sudoku; JSON has the Rush Hour keys plus the grid and the count")
    func solveJSON() throws {
        let output = try GridlockBinary.run(["solve", Self.grid2, "--count", "2", "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try Self.objects(output.stdout).first)
        #expect(object["kind"] as? String == "sudoku")
        #expect(object["solver"] as? String == "bands")
        #expect(object["status"] as? String == "solved")
        #expect(object["solutions"] as? Int == 1)
        let solution = try #require(object["solution"] as? String)
        #expect(solution.count == 81)
        #expect(solution.hasPrefix("417369825"))
        let stats = try #require(object["stats"] as? [String: Any])
        for key in ["examined", "enqueued", "seconds", "memoryBytes", "searchNodes", "guesses", "propagations"] {
            #expect(stats[key] != nil, "\(key)")
        }
    }

    @Test("every puzzle of the three sets solves with both solvers, exit 0", arguments: ["bands", "bitset", "norvig"])
    func solveSets(solver: String) throws {
        let output = try GridlockBinary.run([
            "solve", "Tests/Fixtures/sudoku/easy50.txt", "Tests/Fixtures/sudoku/top95.txt", "Tests/Fixtures/sudoku/hardest.txt",
            "--solver", solver, "--format", "json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let objects = try Self.objects(output.stdout)
        #expect(objects.count == 156)
        #expect(objects.allSatisfy { $0["status"] as? String == "solved" && $0["error"] == nil })
    }

    @Test("--max-steps gives cutoff (exit 2), never a wrong answer")
    func stepCap() throws {
        // The seventh top95 puzzle takes the default solver (bands, like bitset) about 40 search nodes.
        let hard = "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6....."
        let output = try GridlockBinary.run(["solve", hard, "--max-steps", "3", "--format", "json"])
        #expect(output.status == 2)
        let object = try #require(try Self.objects(output.stdout).first)
        #expect(object["status"] as? String == "cutoff")
        #expect(object["cutoffReason"] as? String == "max-steps")
        #expect(object["solution"] == nil)
    }

    @Test("a Rush Hour solver on a Sudoku is refused for that puzzle with the kind's solvers named")
    func wrongSolver() throws {
        let output = try GridlockBinary.run(["solve", Self.grid2, "--solver", "bfs"])
        #expect(output.status == 1)
        #expect(output.stdout.contains("bfs does not solve; its solvers are bands, bitset, norvig"))
    }

    @Test("hint names the forced cell, the digit and the reason")
    func hint() throws {
        let output = try GridlockBinary.run(["hint", Self.grid2])
        #expect(output.status == 0)
        #expect(output.stdout.contains("r6c2 is 4: hidden single, the only place for 4 in box 4"))
        let guess = try GridlockBinary.run(["hint", String(repeating: ".", count: 81), "--format", "json"])
        let object = try #require(try Self.objects(guess.stdout).first?["hint"] as? [String: Any])
        #expect(object["kind"] as? String == "guess")
        #expect((object["candidates"] as? [String])?.count == 9)
    }

    @Test("generate is reproducible, and every puzzle it prints has exactly one solution")
    func generate() throws {
        let arguments = ["generate", "sudoku", "--count", "8", "--givens", "26", "--seed", "11"]
        let first = try GridlockBinary.run(arguments)
        let second = try GridlockBinary.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        let puzzles = first.stdout.split(separator: "\n").filter { !$0.hasPrefix("//") }
        #expect(puzzles.count == 8)
        #expect(puzzles.allSatisfy { $0.count { $0 != "." } <= 27 }, "close to 26 givens")
        let solved = try GridlockBinary.run(["solve", "-", "--count", "2", "--solver", "norvig", "--format", "json"], stdin: first.stdout)
        let objects = try Self.objects(solved.stdout)
        #expect(objects.count == 8)
        #expect(objects.allSatisfy { $0["solutions"] as? Int == 1 })
    }

    @Test("a batch of Rush Hour and Sudoku stores both kinds with their own rows in the tables")
    func mixedBatch() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = directory.appendingPathComponent("results.sqlite").path
        let output = try GridlockBinary.run([
            "batch", "Tests/Fixtures/sudoku/hardest.txt", "Tests/Fixtures/rushhour/unblockme_cameronpit.txt",
            "--solver", "bitset,norvig,bfs", "--workers", "2", "--db", database,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("sudoku") && $0.contains("bitset") && $0.contains("all") })
        #expect(lines.contains { $0.contains("sudoku") && $0.contains("norvig") && $0.contains("all") })
        #expect(lines.contains { $0.contains("rushhour") && $0.contains("bfs") && $0.contains("all") })
        let export = try GridlockBinary.run(["export", database, "--format", "jsonl"])
        let rows = try Self.objects(export.stdout)
        #expect(rows.count == 11 * 2 + 6)
        for row in rows where row["kind"] as? String == "sudoku" {
            #expect(row["status"] as? String == "solved", "\(row)")
            #expect((row["solution"] as? String)?.count == 81)
        }
    }
}
