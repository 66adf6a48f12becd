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
        #expect(lines[1].hasPrefix("bfs") && lines[1].hasSuffix("1.00x"))
        #expect(lines[2].hasPrefix("bidirectional"))
    }

    @Test("a wrong expected answer makes the benchmark fail")
    func wrongAnswers() throws {
        let output = try GridlockBinary.run(["bench", "-", "--solver", "bfs"], stdin: "05 ooooooooooooAAoooooooooooooooooooooo\n")
        #expect(output.status == 3)
        #expect(output.stderr.contains("WRONG"))
    }
}
