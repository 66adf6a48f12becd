// A puzzle of any kind, read and ready to solve: what the CLI, the benchmark and the workers
// hold when they do not care which kind it is. It solves with a solver named by the user and
// checks an answer with the kind's independent validator.

public struct ParsedPuzzle: Sendable {
    public let kind: PuzzleKind
    public let label: String?
    /// The answer the input gave: optimal moves (-1 for unsolvable) and cluster size.
    public let expectedMoves: Int?
    public let expectedCluster: Int?
    /// The puzzle in its kind's own type, for kind-specific output (boards, grids).
    public let rushHour: RushHourPuzzle?
    public let sudoku: SudokuPuzzle?
    public let tiles: TilePuzzle?
    public let tilt: TiltPuzzle?

    /// Reads a record as a puzzle of `kind`, or of the kind it looks like.
    public static func parse(
        _ record: PuzzleRecord, kind: PuzzleKind? = nil, tileOptions: TileReadOptions = TileReadOptions()
    ) throws(PuzzleInputError) -> ParsedPuzzle {
        let detected = kind ?? PuzzleKind.detect(record)
        do {
            return try parse(record, as: detected, tileOptions: tileOptions)
        } catch let error where kind == nil && shapeCodes.contains(error.code) {
            throw error.triedAsEveryKind(record, detected: detected, tileOptions: tileOptions)
        }
    }

    static func parse(_ record: PuzzleRecord, as kind: PuzzleKind, tileOptions: TileReadOptions) throws(PuzzleInputError) -> ParsedPuzzle {
        switch kind {
        case .rushhour: ParsedPuzzle(try RushHourPuzzle.parse(record))
        case .sudoku: ParsedPuzzle(try SudokuPuzzle.parse(record))
        case .tiles: ParsedPuzzle(try TilePuzzle.parse(record, options: tileOptions))
        case .tilt: ParsedPuzzle(try TiltPuzzle.parse(record, asPuzzle: true))
        }
    }

    /// Errors that say the text does not have its kind's shape (characters, lengths, sizes), as
    /// opposed to a board of that kind that breaks a rule: after these, the other kinds are
    /// tried, so text that is no puzzle says why it is none of them.
    static let shapeCodes: Set<String> = [
        "unknown-character", "bad-character", "bad-digit", "not-a-number", "ragged-rows", "board-length", "wrong-length",
        "bad-size", "board-size", "wrong-count", "empty", "bad-json", "extra-text", "bad-number", "no-board",
    ]

    /// Reads text holding exactly one puzzle (a command-line argument, a job). `firstLine` is
    /// the line the text starts on in its file, for error messages.
    public static func parse(
        _ text: String, kind: PuzzleKind? = nil, tileOptions: TileReadOptions = TileReadOptions(), firstLine: Int = 1
    ) throws(PuzzleInputError) -> ParsedPuzzle {
        // A database line, the commonest job of all, straight to its parser: the same reading
        // as the general path below gives it (a record of one line, of Rush Hour).
        if kind == nil || kind == .rushhour, !text.utf8.contains(0x0A), RushHourPuzzle.isDatabaseLine(text.trimmingWhitespace) {
            return ParsedPuzzle(try RushHourPuzzle.parseDatabaseLine(text, lineNumber: firstLine))
        }
        let record = try PuzzleDocument.onlyRecord(in: text, firstLine: firstLine, isSingleLine: PuzzleKind.singleLineTest(kind: kind))
        return try parse(record, kind: kind, tileOptions: tileOptions)
    }

    /// One puzzle of one kind: the other kinds' fields stay nil.
    private init(
        kind: PuzzleKind, label: String?, expectedMoves: Int? = nil, expectedCluster: Int? = nil,
        rushHour: RushHourPuzzle? = nil, sudoku: SudokuPuzzle? = nil, tiles: TilePuzzle? = nil, tilt: TiltPuzzle? = nil
    ) {
        self.kind = kind
        self.label = label
        self.expectedMoves = expectedMoves
        self.expectedCluster = expectedCluster
        self.rushHour = rushHour
        self.sudoku = sudoku
        self.tiles = tiles
        self.tilt = tilt
    }

    public init(_ puzzle: RushHourPuzzle) {
        self.init(
            kind: .rushhour, label: puzzle.label, expectedMoves: puzzle.expectedMoves,
            expectedCluster: puzzle.expectedCluster, rushHour: puzzle)
    }

    public init(_ puzzle: SudokuPuzzle) {
        self.init(kind: .sudoku, label: puzzle.label, sudoku: puzzle)
    }

    public init(_ puzzle: TilePuzzle) {
        self.init(kind: .tiles, label: puzzle.label, expectedMoves: puzzle.expectedMoves, tiles: puzzle)
    }

    public init(_ puzzle: TiltPuzzle) {
        self.init(kind: .tilt, label: puzzle.label, tilt: puzzle)
    }

    /// Whether this kind has a solver of that name.
    public func hasSolver(_ name: String) -> Bool { kind.solverNames.contains(name) }

    /// Does what `solverName` needs done once per process before it can search this puzzle,
    /// and says whether there was any: idastar-pdb's pattern databases, mapped from their cache
    /// or built. Callers run it before a solve's clocks and limits start (issue 43: a build of
    /// half a minute, or a wait for another process's, is setup, not the first puzzle's time).
    @discardableResult
    public func setUp(for solverName: String) -> Bool {
        guard solverName == TilePatternDatabaseSolver().name, let tiles, tiles.width == 4, tiles.height == 4,
              !TilePatternDatabases.shared.isInstalled(tiles.goal)
        else { return false }
        _ = TilePatternDatabases.shared.database(for: tiles.goal)
        return true
    }

    /// Solves with the named solver; nil when this kind has no solver of that name.
    public func solve(with solverName: String, options: SolveOptions) -> SolveResult? {
        if let rushHour, let solver = RushHourSolvers.named(solverName) { return solver.solve(rushHour, options: options) }
        if let sudoku, let solver = SudokuSolvers.named(solverName) { return solver.solve(sudoku, options: options) }
        if let tiles, let solver = TileSolvers.named(solverName) { return solver.solve(tiles, options: options) }
        if let tilt, let solver = TiltSolvers.named(solverName) { return solver.solve(tilt, options: options) }
        return nil
    }

    /// Why a solved result's answer is wrong, checked by the kind's independent validator; nil
    /// when it is right or there is nothing to check.
    public func validationFailure(of result: SolveResult) -> String? {
        guard result.status == .solved || result.solvedPosition != nil else { return nil }
        do {
            if let rushHour { try RushHourSolutionValidator.validate(result.solution, for: rushHour) }
            if let tiles { try TileSolutionValidator.validate(result.solution, for: tiles) }
            if let tilt { try TiltSolutionValidator.validate(result.solution, for: tilt) }
            if let sudoku {
                guard let position = result.solvedPosition else { return "the solver gave no solution" }
                try SudokuSolutionValidator.validate(position, for: sudoku)
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}

extension PuzzleInputError {
    /// This error (the detected kind's), with what every other kind says of the same text: a
    /// kind that reads it is named, so the user can give --kind; otherwise each one's reason.
    func triedAsEveryKind(_ record: PuzzleRecord, detected: PuzzleKind, tileOptions: TileReadOptions) -> PuzzleInputError {
        var reasons: [String] = []
        for other in PuzzleKind.allCases where other != detected {
            do throws(PuzzleInputError) {
                _ = try ParsedPuzzle.parse(record, as: other, tileOptions: tileOptions)
                var named = self
                named.message += " (read as \(detected.rawValue); it reads as a \(other.rawValue) puzzle: give --kind \(other.rawValue))"
                return named
            } catch {
                reasons.append("as \(other.rawValue), \(error.message)")
            }
        }
        var combined = self
        combined.message += " (read as \(detected.rawValue); no other kind reads it either: \(reasons.joined(separator: "; ")))"
        return combined
    }
}
