// Every way a puzzle text can be wrong has a test: the code, and where the error points.

import GridlockCore
import Testing

@Suite("Rush Hour input validation")
struct RushHourValidationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var code: String
        var line: Int?
        var column: Int?
        var mentions: [String]
        var testDescription: String { code }
    }

    static let cases: [Case] = [
        Case(text: "ooooooooooooAAoBoooooooooooooooooooo", code: "block-length", line: 1, column: 16, mentions: ["B", "2 or 3"]),
        Case(text: "ooooooooooooAABBBBoooooooooooooooooo", code: "block-length", line: 1, column: 15, mentions: ["B", "4 long"]),
        Case(text: "ooooooBBooooAABooooooooooooooooooooo", code: "block-shape", line: 1, column: 7, mentions: ["B", "straight"]),
        Case(text: "oooooooooooooBBooooooooooooooooooooo", code: "no-prisoner", line: 1, column: 13, mentions: ["prisoner", "row 2"]),
        Case(text: "ooAAooooooooAAoooooooooooooooooooooo", code: "two-prisoners", line: 1, column: 13, mentions: ["two prisoners"]),
        Case(text: "ooBBooooooooAAooooooBBoooooooooooooo", code: "duplicate-name", line: 1, column: 21, mentions: ["B"]),
        Case(text: "ooooooooooooAAAooooooooooooooooooooo", code: "prisoner-shape", line: 1, column: 13, mentions: ["3 long"]),
        Case(text: "ooooooooooooAoooooAooooooooooooooooo", code: "prisoner-shape", line: 1, column: 13, mentions: ["vertical"]),
        Case(text: "AAooooooooooooooooooooooooooooooooooo", code: "board-length", line: 1, column: 1, mentions: ["37 cells"]),
        Case(text: "BBoooooooooooooooooooooooooooooooooo", code: "no-prisoner", line: 1, column: 13, mentions: ["named A", "row 2"]),
        Case(text: "ooooooooooooooooooAAoooooooooooooooo", code: "prisoner-row", line: 1, column: 19, mentions: ["prisoner is on row 3", "chute is on row 2"]),
        Case(text: "ooooooooooooAA?ooooooooooooooooooooo", code: "unknown-character", line: 1, column: 15, mentions: ["'?'"]),
        Case(text: "xx ooooooooooooAAoooooooooooooooooooooo", code: "bad-number", line: 1, column: 1, mentions: ["MOVES"]),
        Case(text: "ooooooooooooAAoooooooooooooooooooooo 12z", code: "bad-number", line: 1, column: 38, mentions: ["CLUSTER"]),
        Case(text: "......\n..B...\nAAB...>\n.....\n......\n......", code: "ragged-rows", line: 4, column: nil, mentions: ["5 cells"]),
        Case(text: "......\n..B...>\nAAB...>\n......", code: "two-exits", line: 3, column: nil, mentions: ["second"]),
        Case(text: "..B...\n..B...\nAA....\n......>", code: "prisoner-row", line: 3, column: 1, mentions: ["prisoner is on row 2", "chute is on row 3"]),
        Case(text: "{\"width\":6,\"height\":6,\"exit\":{\"side\":\"right\",\"row\":2},\"blocks\":[{\"name\":\"A\",\"orientation\":\"horizontal\",\"row\":2,\"column\":0},{\"name\":\"B\",\"orientation\":\"vertical\",\"row\":1,\"column\":1}]}",
             code: "overlap", line: 1, column: nil, mentions: ["A and B", "row 2, column 1"]),
        Case(text: "{\"width\":6,\"height\":6,\"exit\":{\"side\":\"right\",\"row\":2},\"blocks\":[{\"name\":\"A\",\"orientation\":\"horizontal\",\"row\":2,\"column\":5}]}",
             code: "off-board", line: 1, column: nil, mentions: ["A", "row 2, column 6"]),
        Case(text: "{\"width\":9,\"height\":6,\"exit\":{\"side\":\"right\",\"row\":2},\"blocks\":[]}", code: "board-size", line: 1, column: nil, mentions: ["9x6"]),
        Case(text: "{\"width\":6,\"height\":6,\"blocks\":[]}", code: "bad-json", line: 1, column: nil, mentions: ["exit"]),
        Case(text: "23 17", code: "no-board", line: 1, column: nil, mentions: ["BOARD"]),
        Case(text: "1 2 ooooooooooooAAoooooooooooooooooooooo", code: "extra-text", line: 1, column: 1, mentions: ["'1'"]),
        Case(text: "{\"width\":6,\"height\":6,\"exit\":{\"side\":\"right\",\"row\":2},\"blocks\":[{\"name\":\"AB\",\"orientation\":\"horizontal\",\"row\":2,\"column\":0}]}",
             code: "bad-name", line: 1, column: nil, mentions: ["'AB'"]),
        Case(text: "// only a comment", code: "empty", line: nil, column: nil, mentions: ["no puzzle"]),
        Case(text: "ooooooooooooAAoooooooooooooooooooooo\nooooooooooooAAoooooooooooooooooooooo", code: "several-puzzles", line: nil, column: nil, mentions: ["2 puzzles"]),
        Case(text: "{\"width\":6,\"height\":6,\"exit\":{\"side\":\"right\",\"row\":7},\"blocks\":[{\"name\":\"A\",\"orientation\":\"horizontal\",\"row\":2,\"column\":0}]}",
             code: "exit-row", line: 1, column: nil, mentions: ["row 7"]),
    ]

    @Test("each broken rule is named, with its place", arguments: cases)
    func brokenRule(_ testCase: Case) {
        #expect {
            _ = try RushHourPuzzle.parse(testCase.text)
        } throws: { error in
            guard let error = error as? PuzzleInputError else { return false }
            #expect(error.code == testCase.code, "\(error)")
            #expect(error.location?.line == testCase.line, "\(error)")
            #expect(error.location?.column == testCase.column, "\(error)")
            for word in testCase.mentions {
                #expect(error.message.contains(word), "\(error.message) should mention \(word)")
            }
            return true
        }
    }

    @Test("JSON numbers at the ends of Int are errors with their code, never an overflow trap")
    func extremeNumbers() {
        let big = Int.max, small = Int.min
        let cases: [(exit: String, block: String, code: String)] = [
            ("\"side\":\"right\",\"row\":2", "\"row\":2,\"column\":\(big),\"length\":2,\"orientation\":\"horizontal\"", "off-board"),
            ("\"side\":\"right\",\"row\":2", "\"row\":\(small),\"column\":0,\"length\":2,\"orientation\":\"horizontal\"", "off-board"),
            ("\"side\":\"right\",\"row\":2", "\"row\":\(big),\"column\":\(big),\"length\":2,\"orientation\":\"vertical\"", "off-board"),
            ("\"side\":\"right\",\"row\":2", "\"row\":\(big),\"column\":0,\"length\":7,\"orientation\":\"horizontal\"", "block-length"),
            ("\"side\":\"right\",\"row\":\(big)", "\"row\":2,\"column\":0,\"length\":2,\"orientation\":\"horizontal\"", "exit-row"),
        ]
        for (exit, block, code) in cases {
            let text = "{\"width\":6,\"height\":6,\"exit\":{\(exit)},\"blocks\":[{\"name\":\"A\",\(block)}]}"
            #expect(throws: PuzzleInputError.self) { _ = try RushHourPuzzle.parse(text) }
            do { _ = try RushHourPuzzle.parse(text) } catch let error as PuzzleInputError {
                #expect(error.code == code, "\(error)")
            } catch {}
        }
    }

    @Test("JSON block names follow the grid's alphabet: A-Z moves, x or # is fixed; '.', 'o', a newline and emoji are refused")
    func jsonBlockNames() throws {
        func board(_ name: String, _ orientation: String) -> String {
            "{\"width\":6,\"height\":6,\"exit\":{\"side\":\"right\",\"row\":2},\"blocks\":[{\"name\":\"A\",\"row\":2,\"column\":0,\"length\":2,"
                + "\"orientation\":\"horizontal\"},{\"name\":\"\(name)\",\"row\":0,\"column\":0,\"length\":\(orientation == "fixed" ? 1 : 2),\"orientation\":\"\(orientation)\"}]}"
        }
        for (name, orientation) in [(".", "vertical"), ("o", "vertical"), ("\\n", "vertical"), ("😀", "vertical"), ("b", "vertical"), ("B", "fixed")] {
            #expect(throws: PuzzleInputError.self, "\(name) \(orientation)") { _ = try RushHourPuzzle.parse(board(name, orientation)) }
            do { _ = try RushHourPuzzle.parse(board(name, orientation)) } catch let error as PuzzleInputError {
                #expect(error.code == "bad-name" && !error.message.contains("\n"), "\(error)")
            } catch {}
        }
        #expect(try RushHourPuzzle.parse(board("B", "vertical")).blocks.count == 2)
        #expect(try RushHourPuzzle.parse(board("x", "fixed")).blocks.count == 2)
    }

    @Test("a grid cannot express an overlap: blocks stacked in one column are separate blocks")
    func gridOverlapIsAShape() throws {
        // In a grid each cell holds one letter, so "overlap" can only come from JSON; the grid
        // above with B and C stacked is legal and solvable.
        let puzzle = try RushHourPuzzle.parse("..B...\n..B...\n.AA...>\n..C...\n..C...\n..C...")
        #expect(puzzle.blocks.count == 3)
    }

    @Test("a file keeps going past a bad line, and each error keeps its own line number")
    func documentKeepsGoing() {
        let text = "// header\nooooooooooooAAoooooooooooooooooooooo\noooooooooooooBBooooooooooooooooooooo\n\n01 ooooooooooooAAoooooooooooooooooooooo 5\n"
        let parsed = RushHourPuzzle.parseDocument(text)
        #expect(parsed.count == 3)
        #expect(parsed.map(\.record.firstLine) == [2, 3, 5])
        #expect((try? parsed[0].puzzle.get()) != nil)
        #expect((try? parsed[2].puzzle.get())?.expectedMoves == 1)
        if case .failure(let error) = parsed[1].puzzle {
            #expect(error.code == "no-prisoner")
        } else {
            Issue.record("line 3 has no prisoner")
        }
    }

    @Test("more than 18 movable blocks is refused with the limit named")
    func tooManyBlocks() {
        let rows = ["AABBCC>", "DDEEFF", "GGHHII", "JJKKLL", "MMNNOO", "PPQQRR", "SSTT.."]
        #expect {
            try RushHourPuzzle.parse(rows.joined(separator: "\n"))
        } throws: { error in
            (error as? PuzzleInputError)?.code == "too-many-blocks" && "\(error)".contains("up to 18")
        }
    }
}
