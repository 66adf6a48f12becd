// What the argument parser would take the wrong way, refused before it runs with a message
// that says how to write it: `help nosuch` printed the root help and exited 0, and a puzzle
// that starts with a minus sign (`gridlock solve "-1 ooo...  1"`, an unsolvable database line)
// was read as an option.

import GridlockCore

enum ArgumentCheck {
    /// Why these arguments (without the program's name) are refused, or nil. `known` are the
    /// commands `help` takes (hidden ones too), `shown` those a refusal lists.
    static func refusal(_ arguments: [String], known: [String], shown: [String]) -> String? {
        if arguments.count >= 2, arguments[0] == "help", !known.contains(arguments[1]) {
            return "no command '\(arguments[1].excerpt())'; the commands are \(shown.joined(separator: ", "))"
        }
        let optionsEnd = arguments.firstIndex(of: "--") ?? arguments.endIndex
        if let puzzle = arguments[..<optionsEnd].first(where: looksLikePuzzle) {
            return """
                '\(puzzle.excerpt())' starts with '-', so it would be read as an option: put -- before \
                the puzzles, e.g. gridlock \(arguments[0]) [options] -- '\(puzzle.excerpt())'
                """
        }
        return nil
    }

    /// A minus sign, a digit, and a space or tab further on: a puzzle line (a database line's
    /// move count may be -1), never an option or a negative number given to one.
    private static func looksLikePuzzle(_ argument: String) -> Bool {
        let characters = Array(argument.prefix(2))
        return characters.count == 2 && characters[0] == "-" && characters[1].isNumber
            && argument.contains(where: { $0 == " " || $0 == "\t" })
    }
}
