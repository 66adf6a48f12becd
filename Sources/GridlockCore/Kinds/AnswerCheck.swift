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

    /// Judges `claim` on `puzzle` by the one rule (`AnswerRule`): the validator replays moves
    /// and grids, and the input's MOVES, where it gives them, judge the length and a claim of
    /// no solution; without them a claim of no solution is checked by solving the puzzle, with
    /// `options` as the search's limits.
    public static func verdict(of claim: Claim, for puzzle: ParsedPuzzle, options: SolveOptions = SolveOptions()) -> Verdict {
        switch claim {
        case .unsolvable:
            if puzzle.expectedMoves != nil { return verdict(AnswerEvidence(claim: .unsolvable, expectedMoves: puzzle.expectedMoves)) }
            let solver = puzzle.kind.defaultSolver
            let result = puzzle.solve(with: solver, options: options)!
            switch result.status {
            case .unsolvable: return .correct("it has no solution, as claimed (\(solver) proved it)")
            case .solved:
                guard let moves = result.moves, result.solvedPosition == nil else { return .wrong("a false claim of no solution: \(solver) solved it") }
                return .wrong("a false claim of no solution: \(solver) solved it in \(moves) move\(moves == 1 ? "" : "s")")
            case .cutoff: return .unknown("\(solver) was cut off (\(result.cutoffReason?.rawValue ?? "a limit")) before it could tell")
            }
        case .filled(let grid):
            guard let sudoku = puzzle.sudoku else { return .wrong("a filled grid answers a Sudoku, and this is a \(puzzle.kind.rawValue) puzzle") }
            do {
                try SudokuSolutionValidator.validate(grid, for: sudoku)
            } catch {
                return .wrong("\(error)")
            }
            return verdict(AnswerEvidence(claim: .solved(moves: nil), expectedMoves: puzzle.expectedMoves), correct: "the grid is filled, keeps every given and breaks no rule")
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
            return verdict(
                AnswerEvidence(claim: .solved(moves: moves.count), expectedMoves: puzzle.expectedMoves),
                correct: "\(moves.count) move\(moves.count == 1 ? "" : "s"), each legal, and the puzzle is solved")
        }
    }

    /// The rule's judgement in this type's words.
    private static func verdict(_ evidence: AnswerEvidence, correct: String = "it has no solution, as the input's MOVES says") -> Verdict {
        let judgement = AnswerRule.judge(evidence)
        switch judgement.verdict {
        case .correct: return .correct(correct)
        case .wrong: return .wrong(judgement.reason ?? "wrong")
        case .unknown: return .unknown(judgement.reason ?? "unknown")
        }
    }

    public struct UnreadableMove: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The moves that `texts` say, for a puzzle whose answer is moves.
    public static func moves(_ texts: [String], for puzzle: ParsedPuzzle) throws(UnreadableMove) -> [SolutionMove] {
        if let rushHour = puzzle.rushHour { return try rushHourMoves(texts, for: rushHour) }
        if let tiles = puzzle.tiles { return tileMoves(texts, for: tiles) }
        // The tilt validator reads the text alone ("north").
        return texts.map { SolutionMove(piece: String($0.split(separator: " ").first ?? ""), from: nil, to: nil, text: $0) }
    }

    /// "TILE DIRECTION", each with the cells the tile leaves and enters while it slides into
    /// the blank, so that a stored answer can be drawn (TilePuzzle.boards). The validator reads
    /// the texts alone: from the first move that names no tile beside the blank, no cells.
    static func tileMoves(_ texts: [String], for puzzle: TilePuzzle) -> [SolutionMove] {
        var tiles = puzzle.tiles
        var following = true
        return texts.map { text in
            let piece = String(text.split(separator: " ").first ?? "")
            guard following, let tile = UInt8(piece), tile != 0, let at = tiles.firstIndex(of: tile), let blank = tiles.firstIndex(of: 0),
                  abs(at / puzzle.width - blank / puzzle.width) + abs(at % puzzle.width - blank % puzzle.width) == 1
            else {
                following = false
                return SolutionMove(piece: piece, from: nil, to: nil, text: text)
            }
            tiles.swapAt(at, blank)
            return SolutionMove(
                piece: piece, from: BoardCell(row: at / puzzle.width, column: at % puzzle.width),
                to: BoardCell(row: blank / puzzle.width, column: blank % puzzle.width), text: text)
        }
    }

    /// "NAME DIRECTION COUNT", each block's anchor followed from move to move.
    static func rushHourMoves(_ texts: [String], for puzzle: RushHourPuzzle) throws(UnreadableMove) -> [SolutionMove] {
        var anchors: [String: BoardCell] = [:]
        for block in puzzle.blocks { anchors[String(block.name)] = BoardCell(row: block.row, column: block.column) }
        var moves: [SolutionMove] = []
        for (index, text) in texts.enumerated() {
            let words = text.split(separator: " ")
            guard words.count == 3, let count = Int(words[2]), count >= 1, count <= 64 else {
                throw UnreadableMove(description: "move \(index + 1) '\(text.excerpt())' is not 'BLOCK DIRECTION COUNT' (such as 'B down 2')")
            }
            let (rows, columns): (Int, Int)
            switch words[1] {
            case "up": (rows, columns) = (-count, 0)
            case "down": (rows, columns) = (count, 0)
            case "left": (rows, columns) = (0, -count)
            case "right": (rows, columns) = (0, count)
            default: throw UnreadableMove(description: "move \(index + 1) '\(text.excerpt())': '\(words[1].excerpt())' is not up, down, left or right")
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
