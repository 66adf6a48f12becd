// The wall between user text and the core: every reason a puzzle is refused is one of these,
// with a stable code (for JSON and tests), a sentence that says what is wrong, and where.

/// A place in the user's text, counted from 1.
public struct TextLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int?

    public init(line: Int, column: Int? = nil) {
        self.line = line
        self.column = column
    }

    public var description: String {
        column.map { "line \(line), column \($0)" } ?? "line \(line)"
    }
}

/// Why a puzzle text could not be read.
public struct PuzzleInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A short stable identifier, e.g. `overlap` or `ragged-rows`.
    public var code: String
    /// What is wrong, in a sentence that names blocks and cells.
    public var message: String
    /// Where, when the text position is known.
    public var location: TextLocation?

    public init(code: String, message: String, location: TextLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    public var description: String {
        location.map { "\($0): \(message)" } ?? message
    }

    /// The same error, placed in the user's text: `locate` maps a board cell to a text position.
    func placed(at location: TextLocation?) -> PuzzleInputError {
        var copy = self
        if copy.location == nil { copy.location = location }
        return copy
    }
}
