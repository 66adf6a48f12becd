// A solver from outside Gridlock (issue 19): any program, named on the command line as
// `--external KIND:NAME=COMMAND`. COMMAND runs through /bin/sh -c once per puzzle, reads the
// puzzle on standard input in its kind's line form (no expected answer), and prints one JSON
// object: {"status":"solved","moves":[...]} or {"status":"unsolvable"} (ExternalAnswer.swift).
// Gridlock replays every answer with the kind's validator. `--external-serve` starts COMMAND
// once per worker process instead, and hands it one puzzle a line, reading one answer a line
// (ExternalServer.swift). This file is the pure part: the flags' reading, the names' rules, and
// the text a puzzle is handed over as.

public struct ExternalSolver: Sendable, Hashable {
    public var kind: PuzzleKind
    public var name: String
    public var command: String
    public var mode: Mode

    /// How the command is run.
    public enum Mode: String, Sendable, Hashable {
        /// A process per puzzle (`--external`).
        case once
        /// A long-lived process per worker, a puzzle a line (`--external-serve`).
        case serve

        var flag: String { self == .once ? "--external" : "--external-serve" }
    }

    public init(kind: PuzzleKind, name: String, command: String, mode: Mode = .once) {
        self.kind = kind
        self.name = name
        self.command = command
        self.mode = mode
    }

    /// What a job's fingerprint and a worker's check take of the solver: its command, and
    /// whether it serves (the same program run either way is timed differently).
    public var identity: String { mode == .once ? command : "serve\n" + command }

    public struct Unreadable: Error, CustomStringConvertible, Sendable, Hashable {
        public var description: String
    }

    /// The longest name: it goes in every row, report and frame.
    public static let maximumNameBytes = 64
    /// The longest command: a shell line, not a script (put a script in a file).
    public static let maximumCommandBytes = 4_096

    /// Reads `KIND:NAME=COMMAND`, as `--external` (or `--external-serve`) gives it.
    public static func parse(_ text: String, mode: Mode = .once) throws(Unreadable) -> ExternalSolver {
        let example = "such as rushhour:pybfs='python3 solver.py'"
        guard let colon = text.firstIndex(of: ":"), let equals = text.firstIndex(of: "="), colon < equals else {
            throw Unreadable(description: "'\(text.excerpt())' is not KIND:NAME=COMMAND (\(example))")
        }
        let kindText = String(text[..<colon])
        guard let kind = PuzzleKind(rawValue: kindText) else {
            throw Unreadable(description: "'\(kindText.excerpt())' in '\(text.excerpt())' is not a kind: the kinds are \(PuzzleKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let name = String(text[text.index(after: colon)..<equals])
        let command = String(text[text.index(after: equals)...])
        try checkName(name)
        guard command.contains(where: { !$0.isWhitespace }) else {
            throw Unreadable(description: "the solver \(name) has no command after '=' (\(example))")
        }
        guard command.utf8.count <= maximumCommandBytes, !command.utf8.contains(0) else {
            throw Unreadable(description: "the solver \(name)'s command is over \(maximumCommandBytes) bytes or holds a NUL: put a long command in a script")
        }
        return ExternalSolver(kind: kind, name: name, command: command, mode: mode)
    }

    /// A name is a letter, then letters, digits, '-', '_' and '.', and no built-in solver of any
    /// kind (nor `analyze`), whatever its case: reports, exports and `--solver` lists must tell
    /// them apart.
    static func checkName(_ name: String) throws(Unreadable) {
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first, first.isASCII, first.properties.isAlphabetic, name.utf8.count <= maximumNameBytes,
              scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) })
        else {
            throw Unreadable(description: "the solver name '\(name.printable)' must be a letter, then up to \(maximumNameBytes - 1) letters, digits, '-', '_' or '.'")
        }
        if let builtIn = PuzzleKind.allCases.first(where: { kind in kind.jobNames.contains { $0.lowercased() == name.lowercased() } }) {
            throw Unreadable(description: "\(name) is already a built-in \(builtIn.rawValue) solver: give yours another name")
        }
    }

    /// Reads every `--external` and `--external-serve` flag, refusing a name given twice for
    /// one kind.
    public static func parseAll(_ texts: [String], serving: [String] = []) throws(Unreadable) -> [ExternalSolver] {
        var solvers: [ExternalSolver] = []
        for (text, mode) in texts.map({ ($0, Mode.once) }) + serving.map({ ($0, Mode.serve) }) {
            let solver = try parse(text, mode: mode)
            if let given = solvers.first(where: { $0.kind == solver.kind && $0.name == solver.name }) {
                let flags = given.mode == mode ? "twice by \(mode.flag)" : "by both --external and --external-serve"
                throw Unreadable(description: "the \(solver.kind.rawValue) solver \(solver.name) is given \(flags)")
            }
            solvers.append(solver)
        }
        return solvers
    }
}

extension [ExternalSolver] {
    /// The outside solver of that kind and name, if one was given.
    public func named(_ name: String, kind: PuzzleKind) -> ExternalSolver? {
        first { $0.kind == kind && $0.name == name }
    }

    /// The names given for `kind`, in the order given.
    public func names(of kind: PuzzleKind) -> [String] {
        filter { $0.kind == kind }.map(\.name)
    }
}

extension PuzzleKind {
    /// Whether a batch may name `name` for this kind: a built-in job or an outside solver.
    public func runs(_ name: String, external: [ExternalSolver]) -> Bool {
        runs(name) || external.named(name, kind: self) != nil
    }
}

extension ParsedPuzzle {
    /// What an outside solver reads on standard input: the kind's one-line form without the
    /// expected answer or label (Rush Hour's 36-character board; other Rush Hour shapes as their
    /// grid, one row a line), ended by a newline.
    public var externalInput: String {
        if let rushHour { return (rushHour.databaseBoard ?? rushHour.gridText()) + "\n" }
        if let sudoku { return sudoku.lineText + "\n" }
        if let tiles { return tiles.lineText + "\n" }
        if let tilt { return tilt.lineText + "\n" }
        return "\n"
    }

    /// What a serving solver (`--external-serve`) reads for this puzzle: the same text on one
    /// line, a grid's rows joined by '/'.
    public var externalLine: String {
        externalInput.dropLast().split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "/") + "\n"
    }

    /// What the solver needs beside the text, as environment variables: the kind, and a tile
    /// board's goal (the line does not say it).
    public var externalEnvironment: [String: String] {
        var environment = ["GRIDLOCK_KIND": kind.rawValue]
        if let tiles { environment["GRIDLOCK_TILE_GOAL"] = tiles.goal.rawValue }
        return environment
    }
}
