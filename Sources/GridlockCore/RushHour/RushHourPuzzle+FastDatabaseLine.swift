// The common case of a database line, read on bytes: 36 cells, every letter a straight 2- or
// 3-long block, A on row 2. Batches read millions of such lines, and the general reader
// (Characters, sets, dictionaries, precise errors) costs more than solving an easy board.
//
// Anything unusual returns nil, and the general reader runs instead, so every error message
// still comes from one place. A test checks both readers agree on the whole corpus.

extension RushHourPuzzle {
    static func parseDatabaseLineFast(_ line: String) -> RushHourPuzzle? {
        var line = line
        return line.withUTF8 { bytes in
            var tokens: [(start: Int, end: Int)] = []
            var index = 0
            while index < bytes.count, tokens.count < 5 {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                let start = index
                while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x09 { index += 1 }
                if index > start { tokens.append((start, index)) }
            }
            guard (1...4).contains(tokens.count) else { return nil }
            let side = databaseSide
            let boardToken = tokens.first { $0.end - $0.start == side * side }
            guard let board = boardToken else { return nil }
            let boardIndex = tokens.firstIndex { $0.start == board.start }!
            guard boardIndex <= 1 else { return nil }
            let moves = boardIndex == 1 ? decimal(bytes, tokens[0]) : nil
            if boardIndex == 1, moves == nil { return nil }
            let cluster = tokens.count > boardIndex + 1 ? decimal(bytes, tokens[boardIndex + 1]) : nil
            if tokens.count > boardIndex + 1, cluster == nil { return nil }
            guard var puzzle = blocksOfBoard(bytes, from: board.start) else { return nil }
            puzzle.expectedMoves = moves
            puzzle.expectedCluster = cluster
            if tokens.count > boardIndex + 2 {
                puzzle.label = tokens[(boardIndex + 2)...]
                    .map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }.joined(separator: " ")
            }
            return puzzle
        }
    }

    /// The blocks of a 36-byte board starting at `start`, or nil unless every rule plainly holds.
    /// Its tallies sit on the stack: as arrays they were five allocations a line, a tenth of
    /// the time of a small puzzle's whole solve.
    private static func blocksOfBoard(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> RushHourPuzzle? {
        let side = databaseSide
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 26) { tally in
            // first[letter], count[letter], then the letters in the order they first appear.
            let first = tally.baseAddress!, count = first + 26, order = first + 52
            first.initialize(repeating: -1, count: 26)
            count.initialize(repeating: 0, count: 26)
            var letters = 0
            var walls: [RushHourBlock] = []
            for cell in 0..<(side * side) {
                let byte = bytes[start + cell]
                switch byte {
                case UInt8(ascii: "o"), UInt8(ascii: "."):
                    continue
                case UInt8(ascii: "x"), UInt8(ascii: "#"):
                    walls.append(RushHourBlock(
                        name: Character(Unicode.Scalar(byte)), orientation: .fixed, length: 1,
                        row: cell / side, column: cell % side))
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    let letter = Int(byte - UInt8(ascii: "A"))
                    if first[letter] < 0 {
                        first[letter] = cell
                        order[letters] = letter
                        letters += 1
                    }
                    count[letter] += 1
                default:
                    return nil
                }
            }
            guard letters <= maximumMovableBlocks, first[0] >= 0 else { return nil }
            var blocks: [RushHourBlock] = []
            blocks.reserveCapacity(letters + walls.count)
            for letter in UnsafeBufferPointer(start: order, count: letters) {
                let length = count[letter]
                let head = first[letter]
                guard (2...3).contains(length) else { return nil }
                let name = UInt8(ascii: "A") + UInt8(letter)
                let horizontal = head % side + length <= side
                    && (0..<length).allSatisfy { bytes[start + head + $0] == name }
                let vertical = !horizontal && head / side + length <= side
                    && (0..<length).allSatisfy { bytes[start + head + $0 * side] == name }
                guard horizontal || vertical else { return nil }
                // The prisoner, A, lies along the exit's row, two long.
                if letter == 0, !horizontal || length != 2 || head / side != databaseExit.row { return nil }
                blocks.append(RushHourBlock(
                    name: Character(Unicode.Scalar(name)), orientation: horizontal ? .horizontal : .vertical,
                    length: length, row: head / side, column: head % side))
            }
            blocks += walls
            return RushHourPuzzle(width: side, height: side, exit: databaseExit, blocks: blocks)
        }
    }

    private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ token: (start: Int, end: Int)) -> Int? {
        var value = 0
        var negative = false
        for index in token.start..<token.end {
            let byte = bytes[index]
            if index == token.start, byte == UInt8(ascii: "-"), token.end - token.start > 1 {
                negative = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), value < Int.max / 10 - 10 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            } else {
                return nil
            }
        }
        return negative ? -value : value
    }
}
