// `gridlock solve` end to end: the real binary, real files, real exit codes.

import Foundation
import Testing

@Suite("gridlock solve")
struct SolveCommandTests {
    static let fixtures = "Tests/Fixtures/rushhour/"

    @Test("JSON output has the promised keys on every line, one line per puzzle")
    func jsonKeys() throws {
        let output = try GridlockBinary.run(["solve", Self.fixtures + "unblockme_cameronpit.txt", "--format", "json", "--full"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 6)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for key in ["puzzle", "status", "stats", "cluster"] { #expect(object[key] != nil, "\(key) in \(line)") }
            let stats = try #require(object["stats"] as? [String: Any])
            for key in ["examined", "enqueued", "maxQueue", "seconds", "memoryBytes"] { #expect(stats[key] != nil) }
            if object["status"] as? String == "solved" {
                #expect(object["moves"] != nil)
                #expect((object["solution"] as? [String])?.count == object["moves"] as? Int)
            }
            #expect(object["matchesExpected"] as? Bool == true)
        }
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["puzzle"] as? String == "17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJGH 5911 unblockme-B-7764")
        #expect(first["cluster"] as? Int == 5911)
    }

    @Test("an invalid line is reported with its place and never stops the others; exit 1")
    func invalidLineKeepsGoing() throws {
        let input = "ooooooooooooAAoooooooooooooooooooooo\nooooooooooooAAoBoooooooooooooooooooo\n01 ooxoooooooooooAAoooooooooooooooooooo 5\n"
        let output = try GridlockBinary.run(["solve", "-", "--format", "json"], stdin: input)
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1].contains("\"status\":\"invalid\""))
        #expect(lines[1].contains("\"line\":2"))
        #expect(lines[1].contains("\"column\":16"))
        #expect(lines[1].contains("\"code\":\"block-length\""))
        #expect(lines[2].contains("\"status\":\"solved\""))
    }

    @Test("puzzles can be arguments; text output names the moves; exit 0")
    func argumentPuzzle() throws {
        let output = try GridlockBinary.run(["solve", "ooooooooooooAAoooooooooooooooooooooo", "--show"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("solved in 1 move"))
        #expect(output.stdout.contains("A right 4"))
        #expect(output.stdout.contains("....AA>"))
    }

    @Test("a cut-off search exits 2 and says which limit")
    func cutoff() throws {
        let output = try GridlockBinary.run(["solve", "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo", "--max-states", "100", "--format", "json"])
        #expect(output.status == 2)
        #expect(output.stdout.contains("\"status\":\"cutoff\""))
        #expect(output.stdout.contains("\"cutoffReason\":\"max-states\""))
    }

    @Test("a wrong expected answer in the input is flagged; exit 3")
    func disagreement() throws {
        let output = try GridlockBinary.run(["solve", "-"], stdin: "02 ooooooooooooAAoooooooooooooooooooooo\n")
        #expect(output.status == 3)
        #expect(output.stdout.contains("WRONG: 1 move, shorter than the input's MOVES of 2"), "\(output.stdout)")
    }

    @Test("every solver solves the sample file", arguments: ["bfs", "bidirectional", "reference"])
    func samples(solver: String) throws {
        let output = try GridlockBinary.run(["solve", "data/samples/unblockme.txt", "--solver", solver])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    @Test("usage errors explain themselves")
    func usage() throws {
        let unknown = try GridlockBinary.run(["solve", "x", "--solver", "dfs"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown solver 'dfs'; the solvers are rushhour: bfs"))
        let missing = try GridlockBinary.run(["solve", "missing/boards.txt"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no such file"))
    }
}
