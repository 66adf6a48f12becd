// Splitting a document into puzzles, keeping every line's number for error messages.
//
//   // a comment line                         <- skipped
//   23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo    <- a one-line record (database line, JSON, ...)
//   ..B...                                    <- lines of a grid, up to the next blank line
//   AAB...>
//
// Which lines stand alone is the puzzle kind's call (`isSingleLine`): a Rush Hour grid row is
// short, a database line is long.

/// One line of the user's text and its number, counted from 1.
public struct NumberedLine: Sendable, Hashable {
    public var number: Int
    public var text: String

    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// The text of one puzzle, as the user wrote it.
public struct PuzzleRecord: Sendable, Hashable {
    public var lines: [NumberedLine]

    public init(lines: [NumberedLine]) {
        precondition(!lines.isEmpty, "a record has at least one line")
        self.lines = lines
    }

    public var firstLine: Int { lines[0].number }
    public var text: String { lines.map(\.text).joined(separator: "\n") }
}

public enum PuzzleDocument {
    public static let commentPrefix = "//"

    /// The records of a document in order.
    public static func records(in text: String, isSingleLine: (String) -> Bool) -> [PuzzleRecord] {
        var records: [PuzzleRecord] = []
        var pending: [NumberedLine] = []
        func flush() {
            if !pending.isEmpty { records.append(PuzzleRecord(lines: pending)) }
            pending = []
        }
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = String(rawLine)
            if line.hasSuffix("\r") { line.removeLast() }
            let trimmed = line.trimmingWhitespace
            if trimmed.isEmpty {
                flush()
            } else if trimmed.hasPrefix(commentPrefix) {
                continue
            } else if isSingleLine(trimmed) {
                flush()
                records.append(PuzzleRecord(lines: [NumberedLine(number: number, text: line)]))
            } else {
                pending.append(NumberedLine(number: number, text: line))
            }
        }
        flush()
        return records
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
              let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(characters[first...last])
    }
}
