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
