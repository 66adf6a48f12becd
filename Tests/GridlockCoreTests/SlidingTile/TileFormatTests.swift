// Reading tile boards in every format, refusing bad ones with the reason, and deciding
// solvability before any search.

import GridlockCore
import Testing

@Suite("Tile formats and input errors")
struct TileFormatTests {
    @Test("a square line, a WxH line, a grid and JSON read alike")
    func formatsAgree() throws {
        let line = try TilePuzzle.parse("1 2 3 4 5 6 7 8 0")
        #expect(line.width == 3 && line.height == 3 && line.goal == .blankLast)
        #expect(try TilePuzzle.parse("1 2 3\n4 5 6\n7 8 _").tiles == line.tiles)
        #expect(try TilePuzzle.parse(line.jsonText).tiles == line.tiles)
        #expect(try TilePuzzle.parse(line.gridText).tiles == line.tiles)
        let wide = try TilePuzzle.parse("3x2: 1 2 3 4 _ 5")
        #expect(wide.width == 3 && wide.height == 2)
        #expect(try TilePuzzle.parse(wide.lineText).tiles == wide.tiles)
        let sized = try TilePuzzle.parse("1,2,3,4,0,5", options: TileReadOptions(size: (3, 2)))
        #expect(sized.tiles == wide.tiles)
    }

    @Test("Korf's lines carry the label, the optimal length and his goal")
    func korfLine() throws {
        let puzzle = try TilePuzzle.parse("1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57")
        #expect(puzzle.label == "korf-1")
        #expect(puzzle.expectedMoves == 57)
        #expect(puzzle.goal == .blankFirst)
        #expect(puzzle.unsolvableReason == nil)
        let other = try TilePuzzle.parse("1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57", options: TileReadOptions(goal: .blankLast))
        #expect(other.unsolvableReason != nil, "Korf's boards cannot reach the blank-last goal")
    }

    @Test("bad boards are refused with the reason", arguments: [
        ("1 2 3 4 5 6 7 8 8", "duplicate-tile"),
        ("1 2 3 4 5 6 7 8 9", "tile-out-of-range"),
        ("1 2 3 4 5 6 7 8 0 9", "wrong-count"),
        ("1 2 3 4 5 x 7 8 0", "not-a-number"),
        ("1 2 3\n4 5\n7 8 0", "ragged-rows"),
        ("9x1: 1 2 3 4 5 6 7 8 0", "bad-size"),
        (#"{"width":2,"height":2,"tiles":[1,2]}"#, "wrong-count"),
    ])
    func refused(text: String, code: String) {
        #expect {
            _ = try TilePuzzle.parse(text)
        } throws: { error in
            (error as? PuzzleInputError)?.code == code
        }
    }

    @Test("half the arrangements are unsolvable, decided by parity without a search", arguments: SolverNames.tiles)
    func parity(solverName: String) throws {
        let swapped = try TilePuzzle.parse("2 1 3 4 5 6 7 8 0")
        #expect(swapped.unsolvableReason != nil)
        let result = try #require(TileSolvers.named(solverName)).solve(swapped, options: SolveOptions())
        #expect(result.status == .unsolvable)
        #expect(result.statistics.examined == 0)
        #expect(result.reason?.contains("parity") == true)
        // On an even width the blank's row counts too: one vertical slide from the goal is fine.
        #expect(try TilePuzzle.parse("1 2 3 4 5 6 7 8 9 10 11 0 13 14 15 12").unsolvableReason == nil)
        #expect(try TilePuzzle.parse("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0").unsolvableReason != nil)
    }

    @Test("kinds are told apart: tiles, Sudoku, Rush Hour")
    func detection() {
        func kind(_ text: String) -> PuzzleKind { PuzzleKind.detect(PuzzleKind.records(in: text, kind: nil)[0]) }
        #expect(kind("8 6 7 2 5 4 3 0 1") == .tiles)
        #expect(kind("1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57") == .tiles)
        #expect(kind("14 13 15  7\n11 12  9  5\n 6  _  2  1\n 4  8 10  3") == .tiles)
        #expect(kind("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......") == .sudoku)
        #expect(kind("23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419") == .rushhour)
    }
}

enum SolverNames {
    static let tiles = TileSolvers.names
}
