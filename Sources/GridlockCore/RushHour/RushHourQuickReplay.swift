// The sink replays every answer it stores (issue 48, point 2), millions in a batch, and most are
// Rush Hour database lines answered in a few moves. The general path (the line read into blocks,
// the moves into SolutionMoves, the validator's grid and dictionary) cost 8.5 µs a job, near the
// sink's whole work per job. This reads both texts as bytes and plays the moves on a 36-cell
// grid on the stack, allocating nothing.
//
// It only confirms. Anything it does not plainly accept (another shape of line, a label, an
// unknown block, an illegal move, an unsolved end) gives false, and the caller runs the general
// path, so every refusal and its words come from the one validator. It shares no code with the
// solvers, and a test holds it to the validator on the corpus and on broken answers.

public enum RushHourQuickReplay {
    /// Whether `solution` ("A right 1, B down 2"), `moves` moves long, certainly solves the
    /// database line `line` ("MOVES BOARD CLUSTER", the cluster's size optional).
    public static func confirms(_ solution: String, moves: Int, onDatabaseLine line: String) -> Bool {
        expectedMovesIfConfirmed(solution, moves: moves, onDatabaseLine: line) != nil
    }

    /// The line's MOVES when `solution` certainly solves it, else nil: the sink holds the
    /// answer to the line's own MOVES, not to the one a worker echoes.
    public static func expectedMovesIfConfirmed(_ solution: String, moves: Int, onDatabaseLine line: String) -> Int? {
        // Each move is at least "A up 1", 6 bytes: a count beyond the text is false at once.
        guard moves >= 0, moves <= solution.utf8.count else { return nil }
        let confirmed = line.utf8.withContiguousStorageIfAvailable { lineBytes in
            solution.utf8.withContiguousStorageIfAvailable { moveBytes in
                withUnsafeTemporaryAllocation(of: Int8.self, capacity: 36 + 3 * 26) { space -> Int? in
                    var board = QuickBoard(space.baseAddress!)
                    guard let (start, expected) = boardStart(lineBytes), board.read(lineBytes, from: start),
                          board.plays(moveBytes, moves: moves), board.prisonerIsOut else { return nil }
                    return expected
                }
            }
        }
        return (confirmed ?? nil) ?? nil
    }

    /// Where the 36-byte board starts, and the MOVES before it, if the line is exactly MOVES
    /// BOARD [CLUSTER].
    private static func boardStart(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, moves: Int)? {
        var tokens: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
        var count = 0
        var index = 0
        while index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            let start = index
            while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x09 { index += 1 }
            guard index > start else { break }
            switch count {
            case 0: tokens.0 = start..<index
            case 1: tokens.1 = start..<index
            case 2: tokens.2 = start..<index
            default: return nil
            }
            count += 1
        }
        // The shape ParsedPuzzle reads as a database line (RushHourPuzzle.isDatabaseLine).
        func isNumber(_ token: Range<Int>, digits: ClosedRange<Int>) -> Bool {
            digits.contains(token.count) && token.allSatisfy { (0x30...0x39).contains(bytes[$0]) }
        }
        guard count >= 2, isNumber(tokens.0, digits: 1...9), tokens.1.count == 36 else { return nil }
        guard count == 2 || isNumber(tokens.2, digits: 1...12) else { return nil }
        // At most 9 digits: no overflow.
        let moves = tokens.0.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
        return (tokens.1.lowerBound, moves)
    }
}

/// A 6x6 board on borrowed memory: each cell's block (0 empty, -1 a wall, 1...26 a letter), and
/// each letter's first cell (-1 when absent), length and axis.
private struct QuickBoard {
    let cells: UnsafeMutablePointer<Int8>
    let head: UnsafeMutablePointer<Int8>
    let length: UnsafeMutablePointer<Int8>
    /// 1 for a block along a column, 0 along a row.
    let vertical: UnsafeMutablePointer<Int8>

    init(_ space: UnsafeMutablePointer<Int8>) {
        cells = space
        head = space + 36
        length = head + 26
        vertical = length + 26
        cells.initialize(repeating: 0, count: 36)
        head.initialize(repeating: -1, count: 26)
        length.initialize(repeating: 0, count: 26)
        vertical.initialize(repeating: 0, count: 26)
    }

    /// Reads the board; false unless every letter is one straight block of 2 or 3 and A, 2
    /// long, lies along row 2, where the exit is.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var letters = 0
        for cell in 0..<36 {
            let byte = bytes[start + cell]
            switch byte {
            case UInt8(ascii: "o"), UInt8(ascii: "."): continue
            case UInt8(ascii: "x"), UInt8(ascii: "#"): cells[cell] = -1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                let letter = Int(byte - UInt8(ascii: "A"))
                cells[cell] = Int8(letter + 1)
                if head[letter] < 0 {
                    head[letter] = Int8(cell)
                    letters += 1
                }
                length[letter] += 1
            default: return false
            }
        }
        guard letters <= RushHourPuzzle.maximumMovableBlocks, head[0] >= 0 else { return false }
        for letter in 0..<26 where head[letter] >= 0 {
            let first = Int(head[letter]), count = Int(length[letter])
            guard count == 2 || count == 3 else { return false }
            let alongRow = first % 6 + count <= 6 && (0..<count).allSatisfy { cells[first + $0] == Int8(letter + 1) }
            let alongColumn = first + 6 * (count - 1) < 36 && (0..<count).allSatisfy { cells[first + 6 * $0] == Int8(letter + 1) }
            guard alongRow != alongColumn else { return false }
            vertical[letter] = alongColumn ? 1 : 0
        }
        // The prisoner: 2 long, along row 2 (the readers refuse a 3-long one).
        return vertical[0] == 0 && length[0] == 2 && head[0] / 6 == 2
    }

    /// Plays `moves` moves written "A right 1, B down 2"; false at the first that is not plainly
    /// legal or not plainly written.
    mutating func plays(_ text: UnsafeBufferPointer<UInt8>, moves: Int) -> Bool {
        var index = 0
        for move in 0..<moves {
            if move > 0 {
                guard index + 1 < text.count, text[index] == UInt8(ascii: ","), text[index + 1] == 0x20 else { return false }
                index += 2
            }
            guard index + 1 < text.count, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(text[index]), text[index + 1] == 0x20 else {
                return false
            }
            let letter = Int(text[index] - UInt8(ascii: "A"))
            index += 2
            guard let (step, wordLength) = direction(text, at: index) else { return false }
            index += wordLength
            guard index + 1 < text.count, text[index] == 0x20, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(text[index + 1]) else {
                return false
            }
            let distance = Int(text[index + 1] - UInt8(ascii: "0"))
            index += 2
            guard slide(letter, step: step, distance: distance) else { return false }
        }
        return index == text.count
    }

    /// The step along the board of "up", "down", "left" or "right" at `index`, and the word's length.
    private func direction(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (step: Int, length: Int)? {
        func word(_ letters: StaticString) -> Bool {
            let count = letters.utf8CodeUnitCount
            guard index + count <= text.count else { return false }
            return (0..<count).allSatisfy { text[index + $0] == letters.utf8Start[$0] }
        }
        if word("up") { return (-6, 2) }
        if word("down") { return (6, 4) }
        if word("left") { return (-1, 4) }
        if word("right") { return (1, 5) }
        return nil
    }

    /// Moves the letter's block `distance` cells by `step`, each cell it enters empty and on the board.
    private mutating func slide(_ letter: Int, step: Int, distance: Int) -> Bool {
        guard head[letter] >= 0, (abs(step) == 6) == (vertical[letter] == 1) else { return false }
        let count = Int(length[letter]), unit = abs(step)
        for _ in 0..<distance {
            let first = Int(head[letter]), last = first + unit * (count - 1)
            let entered = step > 0 ? last + unit : first - unit
            let left = step > 0 ? first : last
            if unit == 1 {
                // Along a row: the cell entered must stay on the block's row.
                guard entered >= 0, entered < 36, entered / 6 == first / 6 else { return false }
            } else {
                guard entered >= 0, entered < 36 else { return false }
            }
            guard cells[entered] == 0 else { return false }
            cells[entered] = Int8(letter + 1)
            cells[left] = 0
            head[letter] = Int8(first + step)
        }
        return true
    }

    /// A touches the right edge of row 2.
    var prisonerIsOut: Bool { head[0] == Int8(2 * 6 + 6 - length[0]) }
}
