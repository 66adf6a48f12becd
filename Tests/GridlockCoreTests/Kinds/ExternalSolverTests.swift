// The pure half of outside solvers (issue 19): reading `--external KIND:NAME=COMMAND`, the
// answer's JSON, and the text a solver is handed.

import Testing
@testable import GridlockCore

@Suite("outside solvers: the flag, the answer, the input")
struct ExternalSolverTests {
    @Test("KIND:NAME=COMMAND is read, the command kept whole (it may hold '=' and ':')")
    func readsTheFlag() throws {
        let solver = try ExternalSolver.parse("rushhour:py-bfs=python3 solver.py --mode=fast:1")
        #expect(solver == ExternalSolver(kind: .rushhour, name: "py-bfs", command: "python3 solver.py --mode=fast:1"))
    }

    @Test("a malformed flag says what is wrong", arguments: [
        ("rushhour=python3 x.py", "is not KIND:NAME=COMMAND"),
        ("chess:x=run", "'chess' in 'chess:x=run' is not a kind"),
        ("rushhour:bfs=run", "already a built-in rushhour solver"),
        ("tiles:analyze=run", "analyze is already a built-in"),
        ("rushhour:=run", "must be a letter, then"),
        ("rushhour:my solver=run", "must be a letter, then"),
        ("rushhour:..=run", "must be a letter, then"),
        ("rushhour:-x=run", "must be a letter, then"),
        ("rushhour:BFS=run", "already a built-in rushhour solver"),
        ("rushhour:bitset=run", "already a built-in sudoku solver"),
        ("rushhour:x\u{1b}[31m=run", "'x\\u{1B}[31m'"),
        ("rushhour:x=   ", "has no command"),
    ])
    func refusesMalformedFlags(text: String, reason: String) {
        #expect {
            _ = try ExternalSolver.parse(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("one name twice for one kind is refused; the same name for two kinds is not")
    func namesAreUniquePerKind() throws {
        #expect(throws: ExternalSolver.Unreadable.self) { try ExternalSolver.parseAll(["rushhour:x=a", "rushhour:x=b"]) }
        let both = try ExternalSolver.parseAll(["rushhour:x=a", "tiles:x=b"])
        #expect(both.named("x", kind: .tiles)?.command == "b" && both.names(of: .rushhour) == ["x"])
    }

    @Test("a batch's solver list keeps an outside solver's name for its kind only")
    func solverListsKeepOutsideNames() throws {
        let external = try ExternalSolver.parseAll(["rushhour:mine=run"])
        #expect(PuzzleKind.rushhour.solvers(from: ["mine", "bfs"], external: external) == ["mine", "bfs"])
        #expect(PuzzleKind.tiles.solvers(from: ["mine"], external: external) == [PuzzleKind.tiles.defaultSolver])
    }

    @Test("the solver reads the board alone: no expected answer, no label, no cluster size")
    func inputHasNoAnswer() throws {
        let puzzle = try ParsedPuzzle.parse("51 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2 hard-one")
        #expect(puzzle.expectedMoves == 51)
        #expect(puzzle.externalInput == "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM\n")
        #expect(puzzle.externalEnvironment == ["GRIDLOCK_KIND": "rushhour"])
        let tiles = try ParsedPuzzle.parse("1 2 3 4 5 6 7 0 8", kind: .tiles)
        #expect(tiles.externalInput == "1 2 3 4 5 6 7 0 8\n" && tiles.externalEnvironment["GRIDLOCK_TILE_GOAL"] == "blank-last")
    }

    @Test("an answer's JSON: the claim, and its stats kept as compact JSON")
    func readsAnswers() throws {
        let answer = try AnswerCheck.answer(fromJSON: #" {"status":"solved","moves":["B down 2"],"stats":{"nodes":12,"a":[1]}} "#)
        #expect(answer.claim == .solved(moves: ["B down 2"]) && answer.stats == #"{"a":[1],"nodes":12}"#)
        #expect(try AnswerCheck.answer(fromJSON: #"{"status":"unsolvable"}"#) == AnswerCheck.Answer(claim: .unsolvable, stats: nil))
    }

    @Test("stats that are no object, or too large, are replaced by a note: the answer still counts")
    func oddStatsNoted() throws {
        let list = try AnswerCheck.answer(fromJSON: #"{"status":"unsolvable","stats":[1]}"#)
        #expect(list.claim == .unsolvable && list.stats == #"{"gridlock":"stats not kept: not a JSON object"}"#)
        let large = try AnswerCheck.answer(fromJSON: #"{"status":"unsolvable","stats":{"pad":"\#(String(repeating: "a", count: 5_000))"}}"#)
        #expect(large.stats?.hasPrefix(#"{"gridlock":"stats not kept: 5010 bytes, over 4096"#) == true, "\(large.stats ?? "nil")")
    }

    @Test("unreadable answers say why, quoting their first bytes escaped", arguments: [
        ("\u{1b}[2Jhello", "not JSON: '\\u{1B}[2Jhello'"),
        ("[1,2]", "not a JSON object"),
        ("", "not JSON: (nothing)"),
    ])
    func unreadableAnswers(text: String, reason: String) {
        #expect {
            _ = try AnswerCheck.answer(fromJSON: text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
