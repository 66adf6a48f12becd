// The independent check of a tile solution: it reads only the move texts ("12 left"), finds
// the tile on a plain array, checks that it sits next to the blank on the side the move says,
// slides it, and at the end compares with the goal. No packed states, no solver tables.

public enum TileSolutionValidator {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func validate(_ moves: [SolutionMove], for puzzle: TilePuzzle) throws(Failure) {
        var tiles = puzzle.tiles
        let width = puzzle.width
        for (index, move) in moves.enumerated() {
            let words = move.text.split(separator: " ")
            guard words.count == 2, let tile = UInt8(words[0]), let at = tiles.firstIndex(of: tile), tile != 0 else {
                throw Failure(description: "move \(index + 1) '\(move.text.excerpt())' names no tile on the board")
            }
            let blank = tiles.firstIndex(of: 0)!
            let (row, column, blankRow, blankColumn) = (at / width, at % width, blank / width, blank % width)
            let fits = switch words[1] {
            case "up": blankColumn == column && blankRow == row - 1
            case "down": blankColumn == column && blankRow == row + 1
            case "left": blankRow == row && blankColumn == column - 1
            case "right": blankRow == row && blankColumn == column + 1
            default: false
            }
            guard fits else { throw Failure(description: "move \(index + 1) '\(move.text)': the blank is not there") }
            tiles.swapAt(at, blank)
        }
        guard tiles == puzzle.goalTiles else {
            throw Failure(description: "after \(moves.count) moves the board is not the \(puzzle.goal.rawValue) goal")
        }
    }
}
