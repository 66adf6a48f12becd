// A Sudoku as given: a square grid of 4x4, 9x9 or 16x16 cells, some holding a given digit.
//
//   4 . . | . . . | 8 . 5       digits are 1...side; for 16x16, 1-9 then A-G
//   . 3 . | . . . | . . .       0 or . is a blank
//   ...
//
// The model knows nothing of solving: it holds the givens, checks them against the rules
// (SudokuPuzzle+Validation.swift) and writes them back out (SudokuPuzzle+Text.swift).

public struct SudokuPuzzle: Sendable, Hashable {
    public let geometry: SudokuGeometry
    /// One entry per cell, row by row: 0 for a blank, else the digit 1...side.
    public var cells: [UInt8]
    /// A name the input gave the puzzle, if any.
    public var label: String?

    public var side: Int { geometry.side }
    public var givens: Int { cells.count { $0 != 0 } }

    /// A puzzle from its cells; the count of cells picks the size. Checks the rules; `locate`
    /// says where a cell was written in the user's text, for error messages.
    public init(
        cells: [UInt8], label: String? = nil, locate: (Int) -> TextLocation? = { _ in nil }
    ) throws(PuzzleInputError) {
        guard let boxSide = SudokuGeometry.supportedBoxSides.first(where: { $0 * $0 * $0 * $0 == cells.count }) else {
            throw PuzzleInputError(
                code: "wrong-length",
                message: "a Sudoku has 16, 81 or 256 cells (4x4, 9x9, 16x16); this one has \(cells.count)")
        }
        let geometry = SudokuGeometry.forBoxSide(boxSide)
        if let bad = cells.firstIndex(where: { Int($0) > geometry.side }) {
            throw PuzzleInputError(
                code: "bad-digit", message: "\(geometry.name(of: bad)) holds \(cells[bad]), above \(geometry.side)",
                location: locate(bad))
        }
        self.geometry = geometry
        self.cells = cells
        self.label = label
        try checkGivens(locate: locate)
    }

    /// The digit as one character: 1-9, then A-G for 10-16; `.` for a blank.
    public static func character(for digit: UInt8) -> Character {
        switch digit {
        case 0: "."
        case 1...9: Character(UnicodeScalar(0x30 + digit))
        default: Character(UnicodeScalar(0x41 + digit - 10))
        }
    }

    /// The digit a character stands for: 0 for a blank (`.`, `0`, `_`), nil when it is none.
    public static func digit(for byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "0"), UInt8(ascii: "_"): 0
        case UInt8(ascii: "1")...UInt8(ascii: "9"): byte - 0x30
        case UInt8(ascii: "A")...UInt8(ascii: "G"): byte - 0x41 + 10
        case UInt8(ascii: "a")...UInt8(ascii: "g"): byte - 0x61 + 10
        default: nil
        }
    }
}
