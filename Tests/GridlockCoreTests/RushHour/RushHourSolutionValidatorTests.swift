// The validator must refuse every kind of wrong solution, or the fixture tests prove nothing.

import GridlockCore
import Testing

@Suite("Rush Hour solution validator")
struct RushHourSolutionValidatorTests {
    // ..B...
    // ..B...
    // AA....>     B blocks nothing; A needs one slide of 4.
    static let puzzle = try! RushHourPuzzle.parse("..B.....B...AA......................")

    static func move(_ piece: String, _ from: (Int, Int), _ to: (Int, Int)) -> SolutionMove {
        SolutionMove(piece: piece, from: BoardCell(row: from.0, column: from.1), to: BoardCell(row: to.0, column: to.1), text: piece)
    }

    @Test("a correct solution passes")
    func correct() throws {
        try RushHourSolutionValidator.validate([Self.move("A", (2, 0), (2, 4))], for: Self.puzzle)
    }

    @Test("each wrong solution is refused with its reason", arguments: [
        ([RushHourSolutionValidatorTests.move("A", (2, 0), (2, 3))], "not at the escape chute"),
        ([RushHourSolutionValidatorTests.move("Z", (2, 0), (2, 4))], "no movable block"),
        ([RushHourSolutionValidatorTests.move("A", (2, 1), (2, 4))], "not row 2, column 1"),
        ([RushHourSolutionValidatorTests.move("A", (2, 0), (3, 0))], "cannot go"),
        ([RushHourSolutionValidatorTests.move("B", (0, 2), (1, 2)), RushHourSolutionValidatorTests.move("A", (2, 0), (2, 4))], "runs into B"),
        ([RushHourSolutionValidatorTests.move("A", (2, 0), (2, 5))], "leaves the board"),
        ([RushHourSolutionValidatorTests.move("A", (2, 0), (2, 0))], "cannot go"),
        ([], "not at the escape chute"),
    ] as [([SolutionMove], String)])
    func refused(moves: [SolutionMove], reason: String) {
        #expect {
            try RushHourSolutionValidator.validate(moves, for: Self.puzzle)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
