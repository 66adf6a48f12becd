// One entry point for every Rush Hour format: the record's shape picks the parser.

extension RushHourPuzzle {
    /// A line that is a whole puzzle on its own: JSON, or a database line (its board is far
    /// longer than any grid row).
    public static func isSingleLineRecord(_ trimmedLine: Substring) -> Bool {
        var tokens = 0
        var tokenLength = 0
        var longest = 0
        for byte in trimmedLine.utf8 {
            if byte == 0x20 || byte == 0x09 {
                tokenLength = 0
            } else {
                if tokenLength == 0 { tokens += 1 }
                tokenLength += 1
                longest = max(longest, tokenLength)
            }
        }
        return trimmedLine.first == "{" || tokens > 1 || longest > maximumSide + 4
    }

    /// The commonest line of all, Fogleman's database line ("23 ooBCCC...KKLLo 58419": a move
    /// count, a 36-cell board, an optional cluster size), told on its bytes in one pass. Every
    /// kind's rules read such a line as a Rush Hour record standing alone (no kind takes a line
    /// of letters after a short number; PuzzleKindTests checks it on every data file), so a batch
    /// of millions of them skips those rules.
    public static func isDatabaseLine(_ trimmedLine: Substring) -> Bool {
        // A native string's bytes in place: a pointer loop, not the index checks of a view.
        trimmedLine.utf8.withContiguousStorageIfAvailable(isDatabaseLine) ?? isDatabaseLine(Array(trimmedLine.utf8))
    }

    private static func isDatabaseLine(_ bytes: some Collection<UInt8>) -> Bool {
        var moves = 0, board = 0, cluster = 0
        var field = 0
        var inField = false
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 {
                if inField { field += 1 }
                inField = false
                continue
            }
            inField = true
            let isDigit = (0x30...0x39).contains(byte)
            switch field {
            case 0 where isDigit: moves += 1
            case 1 where byte == 0x2E || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte): board += 1
            case 2 where isDigit: cluster += 1
            default: return false
            }
        }
        return (1...9).contains(moves) && board == 36 && cluster <= 12
    }

    /// Reads a puzzle in whichever format the record is written in.
    public static func parse(_ record: PuzzleRecord) throws(PuzzleInputError) -> RushHourPuzzle {
        let first = record.lines[0]
        let trimmed = first.text.trimmingWhitespace
        if record.lines.count == 1, trimmed.hasPrefix("{") {
            return try parseJSON(String(trimmed), lineNumber: first.number)
        }
        if record.lines.count == 1, isSingleLineRecord(trimmed) {
            return try parseDatabaseLine(first.text, lineNumber: first.number)
        }
        return try parseGrid(record.lines.map { ($0.number, $0.text) })
    }

    /// Every puzzle of a document, or the reason each unreadable one was refused.
    public static func parseDocument(_ text: String) -> [(record: PuzzleRecord, puzzle: Result<RushHourPuzzle, PuzzleInputError>)] {
        PuzzleDocument.records(in: text, isSingleLine: isSingleLineRecord).map { record in
            (record, Result { () throws(PuzzleInputError) in try parse(record) })
        }
    }

    /// Reads a single puzzle from text in any format (a command-line argument, say).
    public static func parse(_ text: String) throws(PuzzleInputError) -> RushHourPuzzle {
        try parse(try PuzzleDocument.onlyRecord(in: text, isSingleLine: isSingleLineRecord))
    }
}
