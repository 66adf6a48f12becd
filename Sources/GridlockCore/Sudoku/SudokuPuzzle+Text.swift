// Writing a Sudoku back out: the one-line form (what files and the wire hold), the grid people
// read, and JSON.

extension SudokuPuzzle {
    /// The cells on one line, `.` for blanks.
    public var lineText: String { Self.lineText(cells) }

    public static func lineText(_ cells: [UInt8]) -> String {
        // Straight from bytes: batches write one of these per solve.
        String(unsafeUninitializedCapacity: cells.count) { buffer in
            for (index, digit) in cells.enumerated() { buffer[index] = characterBytes[Int(digit)] }
            return cells.count
        }
    }

    /// ".123456789ABCDEFG" as bytes: a digit's character, 0 a blank.
    private static let characterBytes: [UInt8] = Array(".123456789ABCDEFG".utf8)

    /// The grid with box separators:
    ///
    ///   4 . . | . . . | 8 . 5
    ///   ------+-------+------
    ///   . . . | 1 . . | . . .
    public static func gridText(_ cells: [UInt8], geometry: SudokuGeometry) -> String {
        let box = geometry.boxSide
        var lines: [String] = []
        for row in 0..<geometry.side {
            if row > 0, row % box == 0 {
                lines.append(Array(repeating: String(repeating: "-", count: box * 2 - 1), count: box).joined(separator: "-+-"))
            }
            let groups = (0..<box).map { group in
                (0..<box).map { String(character(for: cells[row * geometry.side + group * box + $0])) }.joined(separator: " ")
            }
            lines.append(groups.joined(separator: " | "))
        }
        return lines.joined(separator: "\n")
    }

    public var gridText: String { Self.gridText(cells, geometry: geometry) }

    public var jsonText: String { JSONLine.encode(JSONForm(kind: "sudoku", grid: lineText, label: label)) }
}
