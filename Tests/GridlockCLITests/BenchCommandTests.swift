// `gridlock bench` end to end: it measures, compares, and catches wrong answers.

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

    @Test("text that is no puzzle is invalid input, exit 1, not a benchmark of nothing; --timeout cuts each solve")
    func unreadableInputFails() throws {
        let garbage = try GridlockBinary.run(["bench", "-", "--solver", "bfs"], stdin: "S/{sp{b11/34WjM83A8yE#vnmkxp6G 6NsvKJE\n")
        #expect(garbage.status == 1 && garbage.stderr.contains("skipped 1 puzzles that are unreadable"), "\(garbage.stderr)")
        let cut = try GridlockBinary.run(
            ["bench", "-", "--solver", "bfs", "--timeout", "0.000001"], stdin: "48 BBBCDEFGGCDEFoAADoHHIooooJIKKooJLLMM 37740\n")
        #expect(cut.status == 0, "\(cut.stderr)")
        // The row's last fields: cut off, then time vs first with its interval.
        let row = cut.stdout.split(separator: "\n").first { $0.hasPrefix("bfs") }?.split(separator: " ")
        #expect(row?.suffix(3).first == "1", "\(cut.stdout)")
    }
}
