// The puzzle kinds Gridlock solves, and the one place that knows how to tell them apart. The
// CLI, the batch planner and the workers go through here, so a new kind is added once.
//
// Detection, when the user gives no --kind:
//   JSON                    its "kind" key; else "grid" means Sudoku, "tiles" tiles
//   one line                a token of 16, 81 or 256 Sudoku characters is a Sudoku; four or
//                           more numbers and nothing else (a WxH: prefix allowed) are tiles;
//                           anything else is a Rush Hour database line
//   tilt                    one token of tilt cells with rows joined by /; or a grid with *
//                           or lowercase letters other than o and x (else --kind tilt)
//   several lines (a grid)  rows of numbers holding 0...N-1 once each are tiles; other digits
//                           mean Sudoku (its blanks and repeated digits); no digits, Rush Hour

@_exported import GridlockKinds

extension PuzzleKind {
    /// The kinds' solver names, each kind's default first.
    public var solverNames: [String] {
        switch self {
        case .rushhour: RushHourSolvers.names
        case .sudoku: SudokuSolvers.names
        case .tiles: TileSolvers.names
        case .tilt: TiltSolvers.names
        }
    }

    public var defaultSolver: String { solverNames[0] }

    /// The job that explores a whole state space (`gridlock analyze`) instead of solving, for
    /// kinds with moves between positions; it runs through batches like a solver.
    public static let analysisJob = "analyze"

    public var canBeAnalysed: Bool { self != .sudoku }

    /// Solver names plus `analyze` where it applies: what a batch accepts for this kind.
    public var jobNames: [String] { solverNames + (canBeAnalysed ? [Self.analysisJob] : []) }

    /// Whether `name` is one of `jobNames`, without building the list: a worker asks for every job.
    public func runs(_ name: String) -> Bool {
        solverNames.contains(name) || (canBeAnalysed && name == Self.analysisJob)
    }

    /// The solvers of `requested` that solve this kind, in order; the default when it names
    /// none of them, so one `--solver` list serves a file of mixed kinds.
    public func solvers(from requested: [String], external: [ExternalSolver] = []) -> [String] {
        let chosen = requested.filter { runs($0, external: external) }
        return chosen.isEmpty ? [defaultSolver] : chosen
    }

    /// Whether a line stands alone as a puzzle of this kind (the rest are grid rows).
    public func isSingleLineRecord(_ trimmedLine: Substring) -> Bool {
        switch self {
        case .rushhour: RushHourPuzzle.isSingleLineRecord(trimmedLine)
        case .sudoku: SudokuPuzzle.isSingleLineRecord(trimmedLine)
        case .tiles: TilePuzzle.isSingleLineRecord(trimmedLine)
        case .tilt: TiltPuzzle.isSingleLineRecord(trimmedLine)
        }
    }

    /// The record splitter for documents of unknown kind: a line that any kind reads alone,
    /// except a Sudoku grid row (`4 . . | . . . | 8 . 5` has several tokens, as a Rush Hour
    /// database line does).
    public static func isSingleLineRecordOfAnyKind(_ trimmedLine: Substring) -> Bool {
        RushHourPuzzle.isDatabaseLine(trimmedLine) || isSingleLineRecordByRules(trimmedLine)
    }

    /// The rules themselves, without the database line's short cut.
    static func isSingleLineRecordByRules(_ trimmedLine: Substring) -> Bool {
        if SudokuPuzzle.isSingleLineRecord(trimmedLine) || TilePuzzle.isSingleLineRecord(trimmedLine)
            || TiltPuzzle.isSingleLineRecord(trimmedLine) { return true }
        return RushHourPuzzle.isSingleLineRecord(trimmedLine) && !SudokuPuzzle.isGridRow(trimmedLine)
            && !TilePuzzle.isGridRow(trimmedLine)
    }

    /// A splitter for a document read as a stream: of one kind, or of any when `kind` is nil.
    public static func recordSplitter(kind: PuzzleKind?) -> PuzzleRecordSplitter {
        PuzzleRecordSplitter(isSingleLine: singleLineTest(kind: kind))
    }

    /// The records of a document: of one kind, or of any when `kind` is nil.
    public static func records(in text: String, kind: PuzzleKind?) -> [PuzzleRecord] {
        PuzzleDocument.records(in: text, isSingleLine: singleLineTest(kind: kind))
    }

    /// Which lines stand alone, for a document of one kind or of any.
    public static func singleLineTest(kind: PuzzleKind?) -> (Substring) -> Bool {
        guard let kind else { return { isSingleLineRecordOfAnyKind($0) } }
        return { kind.isSingleLineRecord($0) }
    }

    /// The kind a record is written as (see the rules above).
    public static func detect(_ record: PuzzleRecord) -> PuzzleKind {
        if record.lines.count == 1, RushHourPuzzle.isDatabaseLine(record.lines[0].text.trimmingWhitespace) { return .rushhour }
        return detectByRules(record)
    }

    /// The rules themselves, without the database line's short cut.
    static func detectByRules(_ record: PuzzleRecord) -> PuzzleKind {
        let first = record.lines[0].text.trimmingWhitespace
        if record.lines.count == 1 {
            if first.hasPrefix("{") { return jsonKind(first) ?? .rushhour }
            if SudokuPuzzle.isSingleLineRecord(first) { return .sudoku }
            if TiltPuzzle.isSingleLineRecord(first) { return .tilt }
            // Numbers only: tiles, even when they are wrong (a missing tile, a bad count), so
            // the error speaks of tiles.
            if let (_, tokens) = TilePuzzle.numberTokens(first), tokens.count >= 4 { return .tiles }
            // Mostly numbers, five or more of them and no board among them: tiles with a typo
            // ("1 2 3 4 5 6 7 x 0"), told by its tokens, so the error speaks of tiles.
            if TilePuzzle.isMostlyNumbers(first) { return .tiles }
            return .rushhour
        }
        if TiltPuzzle.looksLikeTiltGrid(record.lines) { return .tilt }
        let rows = record.lines.map { TilePuzzle.numberTokens($0.text[...]) }
        if rows.allSatisfy({ $0 != nil && $0!.size == nil }), TilePuzzle.isPermutation(rows.flatMap { $0!.tokens }) {
            return .tiles
        }
        let hasDigits = record.lines.contains { $0.text.utf8.contains { (0x31...0x39).contains($0) } }
        return hasDigits ? .sudoku : .rushhour
    }

    private static func jsonKind(_ text: Substring) -> PuzzleKind? {
        if let range = text.range(of: "\"kind\""),
           let kind = allCases.first(where: { text[range.upperBound...].prefix(24).contains("\"\($0.rawValue)\"") }) {
            return kind
        }
        if text.contains("\"tiles\"") { return .tiles }
        if text.contains("\"rows\"") { return .tilt }
        return text.contains("\"grid\"") ? .sudoku : nil
    }
}
