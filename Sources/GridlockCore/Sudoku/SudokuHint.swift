// The next step a person can take, as SudokuAI's "Tap for a Hint": a cell that logic forces
// from the givens alone, with the digit and the reason, in the order people look for them:
//
//   hidden single in a box      the only place for 5 in box 4
//   hidden single in a row / column
//   naked single                every other digit is already in the cell's row, column or box
//
// If nothing is forced, the hint is the cell to guess at: the one with the fewest candidates.
// Candidates come from the givens only (no deeper technique), so every hint can be checked by
// eye. A cell or a unit with no candidate left means the puzzle has no solution.

public struct SudokuHint: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case hiddenSingle = "hidden-single"
        case nakedSingle = "naked-single"
        case guess
        case contradiction
        case solved
    }

    public var kind: Kind
    /// The cell, `r1c3`, and its row and column counted from 1.
    public var cell: String?
    public var row: Int?
    public var column: Int?
    /// The forced digit, for singles.
    public var digit: String?
    /// The unit that forces a hidden single (`box 4`), or that has no place for a digit.
    public var unit: String?
    /// The cell's candidates, for guesses.
    public var candidates: [String]?
    /// The hint in a sentence.
    public var text: String

    /// The hint for a puzzle as given.
    public static func next(for puzzle: SudokuPuzzle) -> SudokuHint {
        SudokuHintFinder(puzzle).hint()
    }
}

/// Candidates from the givens, and the searches for each kind of hint.
struct SudokuHintFinder {
    let puzzle: SudokuPuzzle
    let geometry: SudokuGeometry
    /// Bit d set when digit d may go in the cell; 0 for a given.
    var candidates: [UInt32]

    init(_ puzzle: SudokuPuzzle) {
        self.puzzle = puzzle
        let geometry = puzzle.geometry
        self.geometry = geometry
        let all = UInt32((1 << geometry.side) - 1) << 1
        candidates = puzzle.cells.indices.map { cell in
            guard puzzle.cells[cell] == 0 else { return 0 }
            var mask = all
            for index in (cell * geometry.peerCount)..<((cell + 1) * geometry.peerCount) {
                mask &= ~(1 << UInt32(puzzle.cells[geometry.peers[index]]))
            }
            return mask
        }
    }

    func hint() -> SudokuHint {
        let blanks = puzzle.cells.indices.filter { puzzle.cells[$0] == 0 }
        guard !blanks.isEmpty else { return SudokuHint(kind: .solved, text: "the grid is full: nothing left to fill") }
        if let dead = blanks.first(where: { candidates[$0] == 0 }) {
            return located(.contradiction, dead, text: "\(geometry.name(of: dead)) has no candidate left: every digit is in its row, column or box, so the puzzle has no solution")
        }
        let side = geometry.side
        // Boxes first, then rows, then columns: the order people scan in.
        let unitOrder = Array(2 * side..<3 * side) + Array(0..<side) + Array(side..<2 * side)
        for unit in unitOrder {
            let members = geometry.units[(unit * side)..<((unit + 1) * side)]
            for digit in 1...side {
                let bit = UInt32(1) << UInt32(digit)
                guard !members.contains(where: { puzzle.cells[$0] == digit }) else { continue }
                let places = members.filter { candidates[$0] & bit != 0 }
                let unitName = geometry.name(ofUnit: unit)
                let digitText = String(SudokuPuzzle.character(for: UInt8(digit)))
                if places.isEmpty {
                    var hint = SudokuHint(kind: .contradiction, unit: unitName, text: "\(digitText) has no place left in \(unitName), so the puzzle has no solution")
                    hint.digit = digitText
                    return hint
                }
                if places.count == 1 {
                    var hint = located(.hiddenSingle, places[0], text: "\(geometry.name(of: places[0])) is \(digitText): hidden single, the only place for \(digitText) in \(unitName)")
                    hint.digit = digitText
                    hint.unit = unitName
                    return hint
                }
            }
        }
        if let single = blanks.first(where: { candidates[$0].nonzeroBitCount == 1 }) {
            let digitText = String(SudokuPuzzle.character(for: UInt8(candidates[single].trailingZeroBitCount)))
            var hint = located(.nakedSingle, single, text: "\(geometry.name(of: single)) is \(digitText): naked single, every other digit is already in its row, column or box")
            hint.digit = digitText
            return hint
        }
        let fewest = blanks.min { candidates[$0].nonzeroBitCount < candidates[$1].nonzeroBitCount }!
        let options = (1...side).filter { candidates[fewest] & (1 << UInt32($0)) != 0 }
            .map { String(SudokuPuzzle.character(for: UInt8($0))) }
        var hint = located(.guess, fewest, text: "no single is forced: guess at \(geometry.name(of: fewest)), which has the fewest candidates (\(options.joined(separator: ", ")))")
        hint.candidates = options
        return hint
    }

    private func located(_ kind: SudokuHint.Kind, _ cell: Int, text: String) -> SudokuHint {
        SudokuHint(
            kind: kind, cell: geometry.name(of: cell), row: geometry.row(of: cell) + 1, column: geometry.column(of: cell) + 1,
            text: text)
    }
}

extension SudokuHint {
    init(kind: Kind, unit: String? = nil, text: String) {
        self.kind = kind
        self.unit = unit
        self.text = text
    }
}
