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
    public var text: String { lines.count == 1 ? lines[0].text : lines.map(\.text).joined(separator: "\n") }
}

public enum PuzzleDocument {
    public static let commentPrefix = "//"

    /// The records of a document in order. `isSingleLine` sees each line without its
    /// surrounding whitespace. Works on UTF-8 bytes: a database file has millions of lines.
    public static func records(in text: String, isSingleLine: @escaping (Substring) -> Bool) -> [PuzzleRecord] {
        var splitter = PuzzleRecordSplitter(isSingleLine: isSingleLine)
        var records: [PuzzleRecord] = []
        var number = 0
        // Split on bytes: "\r\n" is one Character, so splitting Characters on "\n" would not.
        for bytes in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            splitter.add(Substring(bytes), number: number) { records.append($0) }
        }
        splitter.finish { records.append($0) }
        return records
    }
}

/// The same splitting, one line at a time, for inputs read as a stream: a grid's lines wait
/// until the blank line (or single-line record) that ends it.
public struct PuzzleRecordSplitter {
    private let isSingleLine: (Substring) -> Bool
    private var pending: [NumberedLine] = []

    public init(isSingleLine: @escaping (Substring) -> Bool) {
        self.isSingleLine = isSingleLine
    }

    /// Takes line `number` (without its "\n"); hands over every record it completes.
    public mutating func add(_ rawLine: Substring, number: Int, _ emit: (PuzzleRecord) -> Void) {
        let line = rawLine.utf8.last == 0x0D ? Substring(rawLine.utf8.dropLast()) : rawLine
        let trimmed = line.trimmingWhitespace
        if trimmed.isEmpty {
            finish(emit)
        } else if trimmed.hasPrefix(PuzzleDocument.commentPrefix) {
            return
        } else if isSingleLine(trimmed) {
            finish(emit)
            emit(PuzzleRecord(lines: [NumberedLine(number: number, text: String(line))]))
        } else {
            pending.append(NumberedLine(number: number, text: String(line)))
        }
    }

    /// Ends the grid in progress, if any (at the end of the input).
    public mutating func finish(_ emit: (PuzzleRecord) -> Void) {
        if !pending.isEmpty { emit(PuzzleRecord(lines: pending)) }
        pending = []
    }
}

extension PuzzleDocument {
    /// The one record of a text that must hold exactly one puzzle (a command-line argument, a
    /// job's text).
    public static func onlyRecord(
        in text: String, firstLine: Int = 1, isSingleLine: @escaping (Substring) -> Bool
    ) throws(PuzzleInputError) -> PuzzleRecord {
        var found = records(in: text, isSingleLine: isSingleLine)
        // A job's text is one record cut from a longer input: number its lines as they were there.
        if firstLine != 1 {
            for index in found.indices {
                for line in found[index].lines.indices { found[index].lines[line].number += firstLine - 1 }
            }
        }
        guard found.count == 1 else {
            throw PuzzleInputError(
                code: found.isEmpty ? "empty" : "several-puzzles",
                message: found.isEmpty ? "no puzzle in the text" : "the text holds \(found.count) puzzles; expected one")
        }
        return found[0]
    }
}

extension Substring {
    /// The line without leading and trailing spaces and tabs, found on UTF-8 bytes.
    var trimmingWhitespace: Substring {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return self[endIndex...] }
        return self[first...last]
    }
}

extension String {
    var trimmingWhitespace: Substring { self[...].trimmingWhitespace }
}
