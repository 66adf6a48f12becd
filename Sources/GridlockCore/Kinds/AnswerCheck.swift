// An answer from anywhere (another solver, a person, a file), judged by the kinds' independent
// validators (issue 19's `gridlock check`). An answer says a puzzle is solved, with the moves
// as `solve` prints them ("B down 2", "12 left", "north") or, for Sudoku, the filled grid; or
// that it has no solution. Moves are read one by one, keeping each block where the moves before
// put it, so the validator sees what the text says; a claim of no solution is checked by
// solving the puzzle.

public enum AnswerCheck {
    /// What an answer claims.
    public enum Claim: Sendable, Hashable {
        case solved(moves: [String])
        /// Sudoku: the filled grid.
        case filled(grid: String)
        case unsolvable
    }

    /// The judgement, and the words that say why.
    public enum Verdict: Sendable, Hashable {
        /// The moves are legal and solve the puzzle (or it has, as claimed, no solution).
        case correct(String)
        /// An illegal move, an unsolved end, a wrong grid, a false claim of no solution.
        case wrong(String)
        /// A claim of no solution that the search could not settle within its limits.
        case unknown(String)
    }

    /// Judges `claim` on `puzzle`; `options` limit the search that checks a claim of no solution.
    public static func verdict(of claim: Claim, for puzzle: ParsedPuzzle, options: SolveOptions = SolveOptions()) -> Verdict {
        switch claim {
        case .unsolvable:
            let result = puzzle.solve(with: puzzle.kind.defaultSolver, options: options)!
            switch result.status {
            case .unsolvable: return .correct("it has no solution, as claimed (\(puzzle.kind.defaultSolver) proved it)")
            case .solved:
                guard let moves = result.moves, result.solvedPosition == nil else { return .wrong("it is not unsolvable: \(puzzle.kind.defaultSolver) solved it") }
                return .wrong("it is not unsolvable: \(puzzle.kind.defaultSolver) solved it in \(moves) move\(moves == 1 ? "" : "s")")
            default: return .unknown("\(puzzle.kind.defaultSolver) was cut off (\(result.cutoffReason?.rawValue ?? "a limit")) before it could tell")
            }
        case .filled(let grid):
            guard let sudoku = puzzle.sudoku else { return .wrong("a filled grid answers a Sudoku, and this is a \(puzzle.kind.rawValue) puzzle") }
            do {
                try SudokuSolutionValidator.validate(grid, for: sudoku)
                return .correct("the grid is filled, keeps every given and breaks no rule")
            } catch {
                return .wrong("\(error)")
            }
        case .solved(let texts):
            if puzzle.sudoku != nil {
                guard texts.count == 1 else { return .wrong("a Sudoku's answer is its filled grid, one text, not \(texts.count) moves") }
                return verdict(of: .filled(grid: texts[0]), for: puzzle, options: options)
            }
            let moves: [SolutionMove]
            do {
                moves = try self.moves(texts, for: puzzle)
            } catch {
                return .wrong("\(error)")
            }
            let result = SolveResult(status: .solved, solution: moves, statistics: SearchStatistics())
            if let failure = puzzle.validationFailure(of: result) { return .wrong(failure) }
            return .correct("\(moves.count) move\(moves.count == 1 ? "" : "s"), each legal, and the puzzle is solved")
        }
    }

    public struct UnreadableMove: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The moves that `texts` say, for a puzzle whose answer is moves.
    public static func moves(_ texts: [String], for puzzle: ParsedPuzzle) throws(UnreadableMove) -> [SolutionMove] {
        if let rushHour = puzzle.rushHour { return try rushHourMoves(texts, for: rushHour) }
        // Tile and tilt validators read the text alone ("12 left", "north").
        return texts.map { SolutionMove(piece: String($0.split(separator: " ").first ?? ""), from: nil, to: nil, text: $0) }
    }

    /// "NAME DIRECTION COUNT", each block's anchor followed from move to move.
    static func rushHourMoves(_ texts: [String], for puzzle: RushHourPuzzle) throws(UnreadableMove) -> [SolutionMove] {
        var anchors: [String: BoardCell] = [:]
        for block in puzzle.blocks { anchors[String(block.name)] = BoardCell(row: block.row, column: block.column) }
        var moves: [SolutionMove] = []
        for (index, text) in texts.enumerated() {
            let words = text.split(separator: " ")
            guard words.count == 3, let count = Int(words[2]), count >= 1, count <= 64 else {
                throw UnreadableMove(description: "move \(index + 1) '\(text.printable)' is not 'BLOCK DIRECTION COUNT' (such as 'B down 2')")
            }
            let (rows, columns): (Int, Int)
            switch words[1] {
            case "up": (rows, columns) = (-count, 0)
            case "down": (rows, columns) = (count, 0)
            case "left": (rows, columns) = (0, -count)
            case "right": (rows, columns) = (0, count)
            default: throw UnreadableMove(description: "move \(index + 1) '\(text.printable)': '\(String(words[1]).printable)' is not up, down, left or right")
            }
            let name = String(words[0])
            guard let from = anchors[name] else {
                // The validator names it: no movable block of that name.
                moves.append(SolutionMove(piece: name, from: nil, to: nil, text: text))
                continue
            }
            let to = BoardCell(row: from.row + rows, column: from.column + columns)
            anchors[name] = to
            moves.append(SolutionMove(piece: name, from: from, to: to, text: text))
        }
        return moves
    }
}
