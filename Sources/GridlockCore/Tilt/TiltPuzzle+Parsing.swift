// Tilt formats:
//   a grid, one row per line      ..a#        # wall, . empty, a letter a block of that colour,
//                                 b..a        * a plain block
//   one line, rows joined by /    ..a#/b..a/.#../b...
//   JSON                          {"kind":"tilt","rows":["..a#","b..a",".#..","b..."]}
// On several lines a tilt grid can look like a Rush Hour grid; the kind is told from `*` or
// lowercase letters (other than Rush Hour's o and x), else give --kind tilt.

import Foundation

extension TiltPuzzle {
    static let allowed: Set<Character> = Set("#.*").union("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// One token of tilt characters: rows of one length joined by `/` (so `notes/boards.txt`,
    /// a path, is not one).
    public static func isSingleLineRecord(_ trimmedLine: Substring) -> Bool {
        if trimmedLine.first == "{" { return trimmedLine.contains("\"rows\"") }
        let token = trimmedLine.prefix { $0 != " " && $0 != "\t" }
        // Rows joined by '/': a line without one is turned away before splitting Characters.
        guard token.utf8.contains(0x2F) else { return false }
        let rows = token.split(separator: "/", omittingEmptySubsequences: false)
        return rows.count >= 2 && Set(rows.map(\.count)).count == 1
            && token.allSatisfy { $0 == "/" || allowed.contains($0) }
    }

    /// A multi-line grid that can only be a tilt board.
    static func looksLikeTiltGrid(_ lines: [NumberedLine]) -> Bool {
        let text = lines.map(\.text).joined()
        return text.allSatisfy { allowed.contains($0) || $0 == " " }
            && text.contains { $0 == "*" || ($0.isLowercase && $0 != "o" && $0 != "x") }
    }

    /// Reads a board. `asPuzzle`: the board is someone's puzzle (a file's record, an argument),
    /// so it must be one: every colour has blocks to join. The rules' own tests build boards
    /// with lone blocks, which only a puzzle need not have.
    public static func parse(_ record: PuzzleRecord, asPuzzle: Bool = false) throws(PuzzleInputError) -> TiltPuzzle {
        let first = record.lines[0]
        let trimmed = first.text.trimmingWhitespace
        if record.lines.count == 1, trimmed.hasPrefix("{") { return try parseJSON(String(trimmed), lineNumber: first.number, asPuzzle: asPuzzle) }
        if record.lines.count == 1 {
            let token = trimmed.prefix { $0 != " " && $0 != "\t" }
            let label = trimmed.dropFirst(token.count).trimmingWhitespace
            let rows = token.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let indent = first.text.prefix { $0 == " " || $0 == "\t" }.count
            return try build(rows: rows, label: label.isEmpty ? nil : String(label), asPuzzle: asPuzzle) { row, column in
                TextLocation(line: first.number, column: indent + rows[..<row].reduce(0) { $0 + $1.count + 1 } + column + 1)
            }
        }
        let rows = record.lines.map { String($0.text.trimmingWhitespace) }
        return try build(rows: rows, label: nil, asPuzzle: asPuzzle) { row, column in TextLocation(line: record.lines[row].number, column: column + 1) }
    }

    public static func parse(_ text: String) throws(PuzzleInputError) -> TiltPuzzle {
        try parse(try PuzzleDocument.onlyRecord(in: text, isSingleLine: isSingleLineRecord))
    }

    struct JSONForm: Codable {
        var kind: String?
        var rows: [String]
        var label: String?
    }

    static func parseJSON(_ text: String, lineNumber: Int, asPuzzle: Bool) throws(PuzzleInputError) -> TiltPuzzle {
        let form: JSONForm
        do {
            form = try PuzzleJSON.decode(JSONForm.self, from: text)
        } catch {
            throw PuzzleInputError(code: "bad-json", message: "not a tilt JSON object: \(JSONErrorText.describe(error))", location: TextLocation(line: lineNumber))
        }
        return try build(rows: form.rows, label: form.label, asPuzzle: asPuzzle) { _, _ in TextLocation(line: lineNumber) }
    }

    static func build(
        rows: [String], label: String?, asPuzzle: Bool, locate: (Int, Int) -> TextLocation
    ) throws(PuzzleInputError) -> TiltPuzzle {
        guard let width = rows.first?.count, width >= 1 else {
            throw PuzzleInputError(code: "empty", message: "no rows", location: locate(0, 0))
        }
        guard width <= maximumSide, rows.count <= maximumSide else {
            throw PuzzleInputError(code: "bad-size", message: "a tilt board is at most 8x8; this one is \(width)x\(rows.count)", location: locate(0, 0))
        }
        var walls: UInt64 = 0, plain: UInt64 = 0
        var names: [Character] = []
        var colours: [UInt64] = []
        for (row, text) in rows.enumerated() {
            guard text.count == width else {
                throw PuzzleInputError(code: "ragged-rows", message: "the first row has \(width) cells, row \(row) has \(text.count)", location: locate(row, 0))
            }
            for (column, character) in text.enumerated() {
                let bit: UInt64 = 1 << UInt64(row * width + column)
                switch character {
                case ".": break
                case "#": walls |= bit
                case "*": plain |= bit
                case let letter where letter.isLetter && letter.isASCII:
                    if let index = names.firstIndex(of: letter) {
                        colours[index] |= bit
                    } else {
                        names.append(letter)
                        colours.append(bit)
                    }
                default:
                    throw PuzzleInputError(
                        code: "bad-character", message: "'\(character)' is not a tilt cell: # wall, . empty, a letter a coloured block, * a plain block",
                        location: locate(row, column))
                }
            }
        }
        if asPuzzle { try checkColours(names, colours, width: width, locate: locate) }
        let puzzle = TiltPuzzle(
            width: width, height: rows.count, walls: walls, colourNames: names, start: TiltState(colours: colours, plain: plain), label: label)
        // Every colour one unit already: there is nothing to solve (`a/a`, a stray token of
        // random text, would be "solved in 0 moves"). `generate tilt` never makes one.
        if asPuzzle, puzzle.isSolved(puzzle.start) {
            throw PuzzleInputError(
                code: "already-solved", message: "every colour is one unit already: the board is solved before any tilt, so it is no puzzle",
                location: locate(0, 0))
        }
        return puzzle
    }

    /// A colour is there to be joined: with one block it is a plain block named as a colour,
    /// and a board without colours is solved before it starts. Both are what random text and
    /// mistyped words make (`hello` is four colours, three of them alone), so a puzzle with
    /// either is refused, not "solved in 0 moves". `generate tilt` deals two or more a colour.
    static func checkColours(
        _ names: [Character], _ colours: [UInt64], width: Int, locate: (Int, Int) -> TextLocation
    ) throws(PuzzleInputError) {
        guard !names.isEmpty else {
            throw PuzzleInputError(
                code: "no-colour", message: "no coloured block: a tilt puzzle joins the blocks of each colour (a letter), and this board has none",
                location: locate(0, 0))
        }
        if let lone = colours.firstIndex(where: { $0.nonzeroBitCount == 1 }) {
            let cell = colours[lone].trailingZeroBitCount
            throw PuzzleInputError(
                code: "lone-colour", message: "colour '\(names[lone])' has one block: a colour needs two or more to join (* is a plain block)",
                location: locate(cell / width, cell % width))
        }
    }
}
