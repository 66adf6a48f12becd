// Every tile format, picked by the record's shape:
//
//   a line        1 2 3 4 5 6 7 8 0          N numbers row by row, 0 or _ the blank; the size
//                 3x2: 1 2 3 4 5 _           is inferred when N is a square, else a WxH: prefix
//   Korf's line   1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57
//                 id, the 16 tiles, the optimal length (taken as the expected answer); Korf's
//                 goal (blank first) unless --goal says otherwise
//   a grid        14 13 15  7                one row per line
//                 11 12  9  5
//   JSON          {"width":3,"height":3,"tiles":[1,2,3,4,5,6,7,8,0],"goal":"blank-last"}

import Foundation

/// What the command line says about tile puzzles that their text may not.
public struct TileReadOptions: Sendable, Hashable {
    /// Overrides each puzzle's own goal (Korf's lines default to blank-first, others to blank-last).
    public var goal: TileGoal?
    /// The board's size for lines whose count is not a square.
    public var size: (width: Int, height: Int)?

    public init(goal: TileGoal? = nil, size: (width: Int, height: Int)? = nil) {
        self.goal = goal
        self.size = size
    }

    public static func == (left: TileReadOptions, right: TileReadOptions) -> Bool {
        left.goal == right.goal && left.size?.width == right.size?.width && left.size?.height == right.size?.height
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(goal)
        hasher.combine(size?.width)
        hasher.combine(size?.height)
    }

    /// `4x4` as (4, 4).
    public static func size(_ text: Substring) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }
}

extension TilePuzzle {
    /// The tokens of a line of numbers: integers or `_`, split on spaces, tabs and commas; nil
    /// when anything else is there. A `WxH:` prefix is returned apart.
    static func numberTokens(_ line: Substring) -> (size: (width: Int, height: Int)?, tokens: [Substring])? {
        var text = line.trimmingWhitespace
        var size: (width: Int, height: Int)?
        if let colon = text.utf8.firstIndex(of: 0x3A) {
            guard let parsed = TileReadOptions.size(text[..<colon]) else { return nil }
            size = parsed
            text = text[text.utf8.index(after: colon)...]
        }
        // Most lines of a mixed document are not numbers: turn them away on their bytes before
        // splitting Characters (a million-line batch asks this of every line).
        guard text.utf8.allSatisfy(Self.isNumberTokenByte) else { return nil }
        let tokens = text.split { $0 == " " || $0 == "\t" || $0 == "," }
        guard !tokens.isEmpty, tokens.allSatisfy({ $0 == "_" || $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        return (size, tokens)
    }

    private static func isNumberTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || byte == 0x20 || byte == 0x09 || byte == 0x2C || byte == 0x5F
    }

    /// A line that is a whole puzzle: JSON with "tiles", a WxH: prefix, Korf's shape, or a
    /// square count of at least 9 numbers forming 0...N-1 (a 4x4 grid row has 4 numbers, so
    /// 2x2 boards on one line need the prefix).
    public static func isSingleLineRecord(_ trimmedLine: Substring) -> Bool {
        if trimmedLine.first == "{" { return trimmedLine.contains("\"tiles\"") }
        guard let (size, tokens) = numberTokens(trimmedLine) else { return false }
        if size != nil { return true }
        if isKorfShape(tokens) { return true }
        return tokens.count >= 9 && isSquare(tokens.count) && isPermutation(tokens)
    }

    /// Five or more tokens separated by spaces, tabs or commas, over half of them numbers, and
    /// none as long as a board (a database line's name may be numbers: "23 BOARD 5911 1 2 3").
    public static func isMostlyNumbers(_ trimmedLine: Substring) -> Bool {
        let tokens = trimmedLine.split { $0 == " " || $0 == "\t" || $0 == "," }
        guard tokens.count >= 5, tokens.allSatisfy({ $0.utf8.count < 16 }) else { return false }
        return tokens.count { $0 == "_" || $0.allSatisfy(\.isASCIIDigit) } * 2 > tokens.count
    }

    /// A grid row: numbers and blanks only.
    public static func isGridRow(_ trimmedLine: Substring) -> Bool {
        numberTokens(trimmedLine).map { $0.size == nil } ?? false
    }

    static func isSquare(_ count: Int) -> Bool {
        let side = Int(Double(count).squareRoot().rounded())
        return side * side == count && side >= 2
    }

    static func value(_ token: Substring) -> Int? { token == "_" ? 0 : Int(token) }

    /// The tokens as tile numbers: each a number a board could hold (0 to 255, checked before
    /// any conversion: "99999999999999999999" is too big for an Int, let alone a tile).
    static func tileNumbers(_ tokens: [Substring], location: TextLocation) throws(PuzzleInputError) -> [UInt8] {
        var tiles: [UInt8] = []
        tiles.reserveCapacity(tokens.count)
        for (index, token) in tokens.enumerated() {
            guard let number = value(token), (0...255).contains(number) else {
                throw PuzzleInputError(
                    code: "bad-tile", message: "tile \(index + 1), '\(token.prefix(24))', is not a tile number (0 to \(tokens.count - 1), _ for the blank)",
                    location: location)
            }
            tiles.append(UInt8(number))
        }
        return tiles
    }

    static func isPermutation(_ tokens: some Collection<Substring>) -> Bool {
        var seen = Set<Int>()
        for token in tokens {
            guard let value = value(token), value < tokens.count, seen.insert(value).inserted else { return false }
        }
        return true
    }

    /// `id`, a square number of tiles forming a permutation, the optimal length.
    static func isKorfShape(_ tokens: [Substring]) -> Bool {
        tokens.count >= 6 && isSquare(tokens.count - 2) && isPermutation(tokens[1..<(tokens.count - 1)])
            && !isPermutation(tokens)
    }

    /// Reads a puzzle in whichever format the record is written in.
    public static func parse(_ record: PuzzleRecord, options: TileReadOptions = TileReadOptions()) throws(PuzzleInputError) -> TilePuzzle {
        let first = record.lines[0]
        let trimmed = first.text.trimmingWhitespace
        if record.lines.count == 1, trimmed.hasPrefix("{") {
            return try parseJSON(String(trimmed), lineNumber: first.number, options: options)
        }
        if record.lines.count == 1 {
            return try parseLine(first.text, lineNumber: first.number, options: options)
        }
        return try parseGrid(record.lines, options: options)
    }

    public static func parse(_ text: String, options: TileReadOptions = TileReadOptions()) throws(PuzzleInputError) -> TilePuzzle {
        try parse(try PuzzleDocument.onlyRecord(in: text, isSingleLine: isSingleLineRecord), options: options)
    }

    public static func parseLine(_ line: String, lineNumber: Int = 1, options: TileReadOptions = TileReadOptions()) throws(PuzzleInputError) -> TilePuzzle {
        let location = TextLocation(line: lineNumber)
        guard let (prefix, tokens) = numberTokens(line[...]) else {
            throw badToken(in: line, lineNumber: lineNumber)
        }
        var numbers = tokens
        var goal = TileGoal.blankLast
        var expected: Int?
        var label: String?
        if prefix == nil, options.size == nil, isKorfShape(tokens) {
            label = "korf-\(tokens[0])"
            expected = Int(tokens[tokens.count - 1])
            numbers = Array(tokens[1..<(tokens.count - 1)])
            goal = .blankFirst
        }
        guard let size = prefix ?? options.size ?? squareSize(numbers.count) else {
            throw PuzzleInputError(
                code: "wrong-count",
                message: "\(numbers.count) tiles is not a square board: give the size as a WxH: prefix or --size", location: location)
        }
        let tiles = try tileNumbers(numbers, location: location)
        do {
            return try TilePuzzle(
                width: size.width, height: size.height, tiles: tiles, goal: options.goal ?? goal, expectedMoves: expected, label: label)
        } catch {
            throw error.placed(at: location)
        }
    }

    static func squareSize(_ count: Int) -> (width: Int, height: Int)? {
        guard isSquare(count) else { return nil }
        let side = Int(Double(count).squareRoot().rounded())
        return (side, side)
    }

    public static func parseGrid(_ lines: [NumberedLine], options: TileReadOptions = TileReadOptions()) throws(PuzzleInputError) -> TilePuzzle {
        var rows: [[Substring]] = []
        for line in lines {
            guard let (prefix, tokens) = numberTokens(line.text[...]), prefix == nil else {
                throw badToken(in: line.text, lineNumber: line.number)
            }
            if let width = rows.first?.count, tokens.count != width {
                throw PuzzleInputError(
                    code: "ragged-rows", message: "the first row has \(width) tiles, this one \(tokens.count)",
                    location: TextLocation(line: line.number))
            }
            rows.append(tokens)
        }
        let tiles = try tileNumbers(Array(rows.joined()), location: TextLocation(line: lines[0].number))
        do {
            return try TilePuzzle(width: rows[0].count, height: rows.count, tiles: tiles, goal: options.goal ?? .blankLast)
        } catch {
            throw error.placed(at: TextLocation(line: lines[0].number))
        }
    }

    struct JSONForm: Codable {
        var kind: String?
        var width: Int
        var height: Int
        var tiles: [Int]
        var goal: TileGoal?
        var expectedMoves: Int?
        var label: String?
    }

    public static func parseJSON(_ text: String, lineNumber: Int = 1, options: TileReadOptions = TileReadOptions()) throws(PuzzleInputError) -> TilePuzzle {
        let location = TextLocation(line: lineNumber)
        let form: JSONForm
        do {
            form = try PuzzleJSON.decode(JSONForm.self, from: text)
        } catch {
            throw PuzzleInputError(code: "bad-json", message: "not a tiles JSON object: \(JSONErrorText.describe(error))", location: location)
        }
        guard form.tiles.allSatisfy({ (0...255).contains($0) }) else {
            throw PuzzleInputError(code: "tile-out-of-range", message: "tiles are numbers from 0 (the blank) up", location: location)
        }
        do {
            return try TilePuzzle(
                width: form.width, height: form.height, tiles: form.tiles.map { UInt8($0) },
                goal: options.goal ?? form.goal ?? .blankLast, expectedMoves: form.expectedMoves, label: form.label)
        } catch {
            throw error.placed(at: location)
        }
    }

    private static func badToken(in line: String, lineNumber: Int) -> PuzzleInputError {
        let tokens = line.split { $0 == " " || $0 == "\t" || $0 == "," }
        let bad = tokens.first { !($0 == "_" || $0.allSatisfy(\.isASCIIDigit)) && !$0.hasSuffix(":") } ?? tokens.first ?? ""
        let column = line.distance(from: line.startIndex, to: bad.startIndex) + 1
        return PuzzleInputError(
            code: "not-a-number", message: "'\(bad.excerpt())' is not a tile: use numbers, with 0 or _ for the blank",
            location: TextLocation(line: lineNumber, column: column))
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
