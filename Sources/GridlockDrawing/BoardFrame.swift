// A puzzle at one step of its solution, of any kind: what a board picture draws, and what the
// HTML report's player steps through.
//
//   Rush Hour and tiles: the board after each move (step 0 is the start).
//   Tilt: the blocks after each tilt.
//   Sudoku: the givens, then one more solved cell per step in reading order (there are no
//   moves: the player fills the grid).

import GridlockCore

public enum BoardFrame: Sendable, Hashable {
    case rushHour(RushHourPuzzle)
    case tiles([UInt8], width: Int, height: Int)
    case sudoku(givens: [UInt8], cells: [UInt8], boxSide: Int)
    case tilt(TiltPuzzle, TiltState)

    /// Every step of a solution, the start first; the start alone when `result` solved nothing.
    public static func steps(of puzzle: ParsedPuzzle, result: SolveResult?) -> [BoardFrame] {
        let solved = result?.status == .solved ? result : nil
        if let rushHour = puzzle.rushHour {
            return rushHour.boards(after: solved?.solution ?? []).map(BoardFrame.rushHour)
        }
        if let tiles = puzzle.tiles {
            return tiles.boards(after: solved?.solution ?? []).map { .tiles($0, width: tiles.width, height: tiles.height) }
        }
        if let tilt = puzzle.tilt {
            var state = tilt.start
            var frames = [BoardFrame.tilt(tilt, state)]
            for move in solved?.solution ?? [] {
                guard let direction = TiltDirection.allCases.first(where: { $0.name == move.piece }),
                      let next = tilt.tilted(state, direction) else { break }
                state = next
                frames.append(.tilt(tilt, state))
            }
            return frames
        }
        if let sudoku = puzzle.sudoku {
            let givens = sudoku.cells
            var frames = [BoardFrame.sudoku(givens: givens, cells: givens, boxSide: sudoku.geometry.boxSide)]
            guard let position = solved?.solvedPosition else { return frames }
            let answer = position.utf8.map { SudokuPuzzle.digit(for: $0) ?? 0 }
            guard answer.count == givens.count else { return frames }
            var cells = givens
            for index in givens.indices where givens[index] == 0 {
                cells[index] = answer[index]
                frames.append(.sudoku(givens: givens, cells: cells, boxSide: sudoku.geometry.boxSide))
            }
            return frames
        }
        return []
    }
}
