// The three formats read and write the same puzzles, keeping the user's letters.

@testable import GridlockCore
import Testing

@Suite("Rush Hour formats")
struct RushHourFormatTests {
    static let i4 = "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo"

    @Test("a database line reads MOVES, BOARD, CLUSTER and NAME, with 09 as nine")
    func databaseLine() throws {
        let puzzle = try RushHourPuzzle.parseDatabaseLine("09 ooBoCCooBoooAABoooDDDooEoooooEoooooE 111 forty-01")
        #expect(puzzle.expectedMoves == 9)
        #expect(puzzle.expectedCluster == 111)
        #expect(puzzle.label == "forty-01")
        #expect(puzzle.width == 6 && puzzle.height == 6)
        #expect(puzzle.exit == RushHourExit(side: .right, row: 2))
        #expect(puzzle.databaseBoard == "ooBoCCooBoooAABoooDDDooEoooooEoooooE")
    }

    @Test("dots and hashes read like o and x; walls keep their character")
    func alternativeCharacters() throws {
        let dotted = try RushHourPuzzle.parse("..B.....B...AAB.......#.............")
        let classic = try RushHourPuzzle.parse("ooBoooooBoooAABoooooooxooooooooooooo")
        #expect(dotted.blocks.count == classic.blocks.count)
        #expect(dotted.blocks.filter(\.isFixed).map(\.name) == ["#"])
        #expect(RushHourBFSSolver().solve(dotted, options: SolveOptions()).moves
            == RushHourBFSSolver().solve(classic, options: SolveOptions()).moves)
    }

    @Test("the grid round-trips, and its text is the same board as the database line")
    func gridRoundTrip() throws {
        let puzzle = try RushHourPuzzle.parse(Self.i4)
        let grid = puzzle.gridText()
        #expect(grid.split(separator: "\n")[2] == "DAAEG.>")
        let reread = try RushHourPuzzle.parse(grid)
        #expect(reread.databaseBoard == Self.i4)
        #expect(reread.exit == puzzle.exit)
    }

    @Test("a grid can put the chute on the left of any row of any size")
    func leftExit() throws {
        let puzzle = try RushHourPuzzle.parse("""
             ..B.x
            <AAB..
             .....
             CCC..
            """)
        #expect(puzzle.width == 5 && puzzle.height == 4)
        #expect(puzzle.exit == RushHourExit(side: .left, row: 1))
        #expect(puzzle.goalColumn == 0)
        #expect(puzzle.isSolved)
        #expect(puzzle.gridText().hasPrefix(" ..B.x\n<AAB.."))
        let moved = try RushHourPuzzle.parse(" ....x\n<.AA..\n .....\n CCC..")
        let result = RushHourBFSSolver().solve(moved, options: SolveOptions())
        #expect(result.solution.map(\.text) == ["A left 1"])
    }

    @Test("JSON round-trips with letters, lengths, walls and the expected answer")
    func jsonRoundTrip() throws {
        var puzzle = try RushHourPuzzle.parse("23 " + Self.i4 + " 58419")
        puzzle.label = "I-4"
        let json = puzzle.jsonText
        let reread = try RushHourPuzzle.parse(json)
        #expect(reread == puzzle)
        #expect(reread.expectedMoves == 23)
        #expect(json.contains("\"name\":\"K\""))
    }

    @Test("moves print as people say them, keeping the user's letters")
    func moveText() throws {
        let puzzle = try RushHourPuzzle.parse("ooooooooooooooAAoooooooooooooooooooo")
        let result = RushHourBFSSolver().solve(puzzle, options: SolveOptions())
        #expect(result.solution.map(\.text) == ["A right 2"])
        #expect(result.solution.first?.from == BoardCell(row: 2, column: 2))
        #expect(result.solution.first?.to == BoardCell(row: 2, column: 4))
    }

    @Test("a document mixes formats, skips comments, and separates grids by blank lines")
    func mixedDocument() {
        let text = """
            // Unblock Me I-4 and two grids
            23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419

            ..B...
            AAB...>

            ......
            ..AA..>
            """
        let records = PuzzleDocument.records(in: text, isSingleLine: RushHourPuzzle.isSingleLineRecord)
        #expect(records.map(\.firstLine) == [2, 4, 7])
        #expect(records.map(\.lines.count) == [1, 2, 2])
    }

    @Test("the board after each move replays the solution, last board solved")
    func boardsAfterMoves() throws {
        let puzzle = try RushHourPuzzle.parse("51 BCCoDoBEFoDGBEFAAGHHHIoGooJIKKLLJMMo 4780")
        let result = RushHourBFSSolver().solve(puzzle, options: SolveOptions())
        let boards = puzzle.boards(after: result.solution)
        #expect(boards.count == 52)
        #expect(!boards[0].isSolved)
        #expect(boards[51].isSolved)
    }
}

@Suite("Rush Hour fast database reader")
struct RushHourFastReaderTests {
    @Test("the fast reader and the detailed reader agree on every fixture line", arguments: Fixtures.smallFiles + [Fixtures.spread])
    func readersAgree(file: String) throws {
        for line in Fixtures.text("rushhour/" + file).split(separator: "\n").map(String.init) {
            let fast = try #require(RushHourPuzzle.parseDatabaseLineFast(line), "\(line)")
            let detailed = try RushHourPuzzle.parseDatabaseLineInDetail(line)
            #expect(fast == detailed)
            #expect(fast.label == detailed.label && fast.expectedMoves == detailed.expectedMoves)
        }
    }

    @Test("anything unusual goes to the detailed reader", arguments: [
        "ooooooooooooAAoBoooooooooooooooooooo", "ooooooBBooooAABooooooooooooooooooooo", "ooooooooooooAA?ooooooooooooooooooooo",
        "oooooooooooooBBooooooooooooooooooooo", "x1 ooooooooooooAAoooooooooooooooooooo", "ooooooooooooooooooAAoooooooooooooooo",
    ])
    func fallsBack(line: String) {
        #expect(RushHourPuzzle.parseDatabaseLineFast(line) == nil)
    }
}
