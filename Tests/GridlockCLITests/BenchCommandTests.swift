// `gridlock bench` end to end: it measures, compares, and catches wrong answers.

import Foundation
import Testing

@Suite("gridlock bench")
struct BenchCommandTests {
    @Test("one row per solver with the ratio to the first")
    func sideBySide() throws {
        let output = try GridlockBinary.run([
            "bench", "Tests/Fixtures/rushhour/fogleman_forty.txt", "--solver", "bfs,bidirectional", "--warmup", "5",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("solver"))
        #expect(lines[1].hasPrefix("bfs") && lines[1].hasSuffix("1.00x (1.000-1.000)"), "\(lines[1])")
        #expect(lines[2].hasPrefix("bidirectional"))
    }

    @Test("a wrong expected answer makes the benchmark fail")
    func wrongAnswers() throws {
        let output = try GridlockBinary.run(["bench", "-", "--solver", "bfs"], stdin: "05 ooooooooooooAAoooooooooooooooooooooo\n")
        #expect(output.status == 3)
        #expect(output.stderr.contains("WRONG"))
    }

    @Test("text that is no puzzle is invalid input, exit 1, not a benchmark of nothing; --timeout cuts each solve, exit 2 as batch")
    func unreadableInputFails() throws {
        let garbage = try GridlockBinary.run(["bench", "-", "--solver", "bfs"], stdin: "S/{sp{b11/34WjM83A8yE#vnmkxp6G 6NsvKJE\n")
        #expect(garbage.status == 1 && garbage.stderr.contains("skipped 1 puzzles that are unreadable"), "\(garbage.stderr)")
        let cut = try GridlockBinary.run(
            ["bench", "-", "--solver", "bfs", "--timeout", "0.000001"], stdin: "48 BBBCDEFGGCDEFoAADoHHIooooJIKKooJLLMM 37740\n")
        #expect(cut.status == 2 && cut.stderr.contains("cut off by a limit"), "\(cut.stderr)")
        // The row's last fields: cut off, then wall and CPU vs first: none, as a cut-off has no time to pair.
        let row = cut.stdout.split(separator: "\n").first { $0.hasPrefix("bfs") }?.split(separator: " ")
        #expect(row?.suffix(3) == ["1", "-", "-"], "\(cut.stdout)")
    }

    /// The solvers table of `bench --format json`, a row per solver.
    static func solverRows(_ stdout: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return try #require(object["solvers"] as? [[String: Any]], "\(stdout)")
    }

    @Test("bench holds --time-limit and --memory-limit as batch does; cut-off and wrong solves stay out of the ratios")
    func limitsAndRatios() throws {
        let board = "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419\n"
        let started = Date()
        let slept = try GridlockBinary.run(
            ["bench", "-", "--warmup", "0", "--solver", "bfs,sleeper", "--external", "rushhour:sleeper=sleep 20", "--time-limit", "0.1", "--format", "json"],
            stdin: board)
        #expect(Date().timeIntervalSince(started) < 10, "a CPU limit implies a wall limit of 1.2 s")
        #expect(slept.status == 2, "\(slept.stderr)")
        let rows = try Self.solverRows(slept.stdout)
        #expect(rows.count == 2 && rows[1]["cutoff"] as? Int == 1, "\(rows)")
        #expect(rows[1]["time_vs_first"] is NSNull || rows[1]["time_vs_first"] == nil, "a cut-off solve has no ratio: \(rows[1])")
        let hog = #"python3 -c 'x = bytearray(512 << 20); import time; time.sleep(5)'"#
        let memout = try GridlockBinary.run(
            ["bench", "-", "--warmup", "0", "--solver", "bfs,hog", "--external", "rushhour:hog=\(hog)", "--memory-limit", "64M", "--timeout", "10", "--format", "json"],
            stdin: board)
        let memoutRows = try Self.solverRows(memout.stdout)
        #expect(memout.status == 2 && memoutRows[1]["cutoff"] as? Int == 1, "\(memout.stdout)\(memout.stderr)")
        let wrong = try GridlockBinary.run(
            ["bench", "-", "--warmup", "0", "--solver", "bfs,bad", "--external", "rushhour:bad=echo garbage", "--format", "json"], stdin: board)
        #expect(wrong.status == 3)
        let wrongRows = try Self.solverRows(wrong.stdout)
        #expect(wrongRows[1]["wrong"] as? Int == 1 && (wrongRows[1]["time_vs_first"] is NSNull || wrongRows[1]["time_vs_first"] == nil), "\(wrongRows)")
    }
}
