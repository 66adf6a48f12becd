// Every Sudoku format, picked by the record's shape:
//
//   a line     4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
//              (16, 81 or 256 characters; anything after a space is the puzzle's label)
//   a grid     4 . . | . . . | 8 . 5      one row per line; spaces, | - + are ignored,
//              . 3 . | . . . | . . .      so Norvig's and most newspapers' layouts read as is
//              ------+-------+------
//   JSON       {"grid":"4.....8.5.3...","label":"grid2"}

import Foundation

extension SudokuPuzzle {
    /// A line that is a whole puzzle: JSON, or one token of 81 or 256 cell characters, or of 16
    /// when they are all 1-4 or blanks (a 16x16 grid row is also 16 characters long, but holds
    /// larger digits).
    public static func isSingleLineRecord(_ trimmedLine: Substring) -> Bool {
        if trimmedLine.first == "{" { return true }
        let token = trimmedLine.utf8.prefix { $0 != 0x20 && $0 != 0x09 }
        switch token.count {
        case 81, 256: return true
        case 16: return token.allSatisfy { (digit(for: $0) ?? 5) <= 4 }
        default: return false
        }
    }

    /// A line that can be a row of a grid: cells and separators only, at most 16 cells.
    public static func isGridRow(_ trimmedLine: Substring) -> Bool {
        var cells = 0
        for byte in trimmedLine.utf8 where !separators.contains(byte) {
            guard digit(for: byte) != nil else { return false }
            cells += 1
        }
        return cells <= 16
    }

    /// Reads a puzzle in whichever format the record is written in.
    public static func parse(_ record: PuzzleRecord) throws(PuzzleInputError) -> SudokuPuzzle {
        let first = record.lines[0]
        let trimmed = first.text.trimmingWhitespace
        if record.lines.count == 1, trimmed.hasPrefix("{") {
            return try parseJSON(String(trimmed), lineNumber: first.number)
        }
        if record.lines.count == 1, isSingleLineRecord(trimmed) || trimmed.utf8.count > 16 {
            return try parseLine(first.text, lineNumber: first.number)
        }
        return try parseGrid(record.lines)
    }

    /// Reads a single puzzle from text in any format.
    public static func parse(_ text: String) throws(PuzzleInputError) -> SudokuPuzzle {
        try parse(try PuzzleDocument.onlyRecord(in: text, isSingleLine: isSingleLineRecord))
    }

    /// One line: the cells, then optionally whitespace and a label.
    public static func parseLine(_ line: String, lineNumber: Int = 1) throws(PuzzleInputError) -> SudokuPuzzle {
        let bytes = Array(line.utf8)
        guard let start = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else {
            throw PuzzleInputError(code: "empty", message: "the line is empty", location: TextLocation(line: lineNumber))
        }
        let end = bytes[start...].firstIndex(where: { $0 == 0x20 || $0 == 0x09 }) ?? bytes.count
        var cells: [UInt8] = []
        cells.reserveCapacity(end - start)
        for index in start..<end {
            guard let digit = digit(for: bytes[index]) else {
                throw badCharacter(bytes[index], at: TextLocation(line: lineNumber, column: index + 1))
            }
            cells.append(digit)
        }
        let rest = String(decoding: bytes[end...], as: UTF8.self).trimmingWhitespace
        do {
            return try SudokuPuzzle(cells: cells, label: rest.isEmpty ? nil : String(rest)) { cell in
                TextLocation(line: lineNumber, column: start + cell + 1)
            }
        } catch {
            throw error.placed(at: TextLocation(line: lineNumber))
        }
    }

    /// Lines of a grid; separator characters and separator-only lines are skipped.
    public static func parseGrid(_ lines: [NumberedLine]) throws(PuzzleInputError) -> SudokuPuzzle {
        var cells: [UInt8] = []
        var where_: [TextLocation] = []
        var rowLengths: [(line: Int, count: Int)] = []
        for line in lines {
            var count = 0
            for (index, byte) in line.text.utf8.enumerated() {
                if separators.contains(byte) { continue }
                guard let digit = digit(for: byte) else {
                    throw badCharacter(byte, at: TextLocation(line: line.number, column: index + 1))
                }
                cells.append(digit)
                where_.append(TextLocation(line: line.number, column: index + 1))
                count += 1
            }
            if count > 0 { rowLengths.append((line.number, count)) }
        }
        if let ragged = rowLengths.first(where: { $0.count != rowLengths.count }) {
            throw PuzzleInputError(
                code: "ragged-rows",
                message: "a Sudoku grid is square: \(rowLengths.count) rows, but this row has \(ragged.count) cells",
                location: TextLocation(line: ragged.line))
        }
        return try SudokuPuzzle(cells: cells) { where_[$0] }
    }

    /// `{"grid": "...", "label": "..."}`; `kind` may say "sudoku".
    public static func parseJSON(_ text: String, lineNumber: Int = 1) throws(PuzzleInputError) -> SudokuPuzzle {
        let form: JSONForm
        do {
            form = try PuzzleJSON.decode(JSONForm.self, from: text)
        } catch {
            throw PuzzleInputError(
                code: "bad-json", message: "not a Sudoku JSON object: \(JSONErrorText.describe(error))",
                location: TextLocation(line: lineNumber))
        }
        if let kind = form.kind, kind != "sudoku" {
            throw PuzzleInputError(
                code: "wrong-kind", message: "the object's kind is '\(kind)', not 'sudoku'", location: TextLocation(line: lineNumber))
        }
        var cells: [UInt8] = []
        for byte in form.grid.utf8 {
            guard let digit = digit(for: byte) else {
                throw badCharacter(byte, at: TextLocation(line: lineNumber))
            }
            cells.append(digit)
        }
        do {
            return try SudokuPuzzle(cells: cells, label: form.label)
        } catch {
            throw error.placed(at: TextLocation(line: lineNumber))
        }
    }

    struct JSONForm: Codable {
        var kind: String?
        var grid: String
        var label: String?
    }

    /// Characters that lay out a grid for the eye and carry no cell.
    private static let separators: Set<UInt8> = [0x20, 0x09, UInt8(ascii: "|"), UInt8(ascii: "-"), UInt8(ascii: "+")]

    private static func badCharacter(_ byte: UInt8, at location: TextLocation) -> PuzzleInputError {
        let shown = byte < 0x80 ? "'\(Character(UnicodeScalar(byte)))'" : "byte \(byte)"
        return PuzzleInputError(
            code: "bad-character",
            message: "\(shown) is not a Sudoku cell: use 1-9 (A-G on 16x16) for a given, . or 0 for a blank",
            location: location)
    }
}
