// What `gridlock solve` says about one puzzle, as one JSON object per line or as text.
//
//   {"puzzle":"23 ooBCCC... 58419","status":"solved","moves":23,"solution":["D up 1",...],
//    "stats":{"examined":521748,"enqueued":40875,"maxQueue":...,"seconds":0.0185,...},...}
//
// The keys are a contract: the cluster's workers send the same object, and users parse it.

import Foundation

public struct SolveReport: Sendable, Codable, Hashable {
    public struct Source: Sendable, Codable, Hashable {
        public var file: String
        public var line: Int

        public init(file: String, line: Int) {
            self.file = file
            self.line = line
        }
    }

    public struct ErrorInfo: Sendable, Codable, Hashable {
        public var code: String
        public var message: String
        public var line: Int?
        public var column: Int?

        public init(code: String, message: String, line: Int? = nil, column: Int? = nil) {
            self.code = code
            self.message = message
            self.line = line
            self.column = column
        }
    }

    public struct Stats: Sendable, Codable, Hashable {
        public var examined: Int
        public var enqueued: Int
        public var examinedPerLevel: [Int]
        public var enqueuedPerLevel: [Int]
        public var maxQueue: Int
        public var finalQueue: Int
        public var statesStored: Int
        public var memoryBytes: Int
        public var levelReached: Int
        public var seconds: Double
        /// Depth-first searches only (Sudoku).
        public var searchNodes: Int?
        public var guesses: Int?
        public var propagations: Int?
        /// IDA*: each iteration's f bound (the per-level counts are per iteration).
        public var bounds: [Int]?
    }

    /// `solution`: the moves for puzzles solved by moves, the solved position (one line) for
    /// puzzles answered by a position, such as Sudoku.
    public enum Solution: Sendable, Hashable, Codable {
        case moves([String])
        case position(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let position = try? container.decode(String.self) {
                self = .position(position)
            } else {
                self = .moves(try container.decode([String].self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .moves(let moves): try container.encode(moves)
            case .position(let position): try container.encode(position)
            }
        }

        public var moves: [String]? {
            if case .moves(let moves) = self { return moves }
            return nil
        }

        public var position: String? {
            if case .position(let position) = self { return position }
            return nil
        }
    }

    /// The input as given.
    public var puzzle: String
    /// `rushhour`, `sudoku`, ...
    public var kind: String?
    public var source: Source?
    public var label: String?
    public var solver: String?
    /// The solver that ran instead, when `solver` fell back to another (SolveResult.solvedBy).
    public var solvedBy: String?
    /// `solved`, `unsolvable`, `cutoff` or `invalid`.
    public var status: String
    public var cutoffReason: String?
    /// Why the status, in words, when the solver said (an unsolvable tile board's parity).
    public var reason: String?
    public var moves: Int?
    public var solution: Solution?
    /// Solutions counted, when counting was asked for (`--count`).
    public var solutions: Int?
    /// Each move's piece and anchor cell before and after, for viewers.
    public var steps: [SolutionMove]?
    public var cluster: Int?
    public var expectedMoves: Int?
    public var expectedCluster: Int?
    /// False when the answer is wrong by the one rule (AnswerRule): it disagrees with the
    /// input's expected answer or fails validation; true when it matches an expected answer.
    public var matchesExpected: Bool?
    /// What differs, when `matchesExpected` is false: "25 moves, longer than the input's MOVES
    /// of 23", "a cluster of ... boards, where the input's CLUSTER says ...".
    public var disagreement: String?
    public var error: ErrorInfo?
    public var stats: Stats?
    /// True for an outside solver's run (`--external`): its stats are its process's time and
    /// memory, not a search's counts.
    public var outside: Bool?

    public init(puzzle: String, source: Source?) {
        self.puzzle = puzzle
        self.source = source
        self.status = "invalid"
    }

    /// The report of a puzzle that could not be read.
    public static func invalid(_ text: String, source: Source?, error: PuzzleInputError) -> SolveReport {
        var report = SolveReport(puzzle: text, source: source)
        report.error = ErrorInfo(
            code: error.code, message: error.message, line: error.location?.line, column: error.location?.column)
        return report
    }

    /// The report of a solve. An expected move count of -1 means the input expected
    /// "unsolvable". The solution is replayed by the kind's validator; a failure is reported
    /// as a disagreement with the error `invalid-solution`.
    public static func solved(
        _ text: String, source: Source?, solver: String, result: SolveResult, puzzle: ParsedPuzzle
    ) -> SolveReport {
        let expectedMoves = puzzle.expectedMoves, expectedCluster = puzzle.expectedCluster
        var report = SolveReport(puzzle: text, source: source)
        report.kind = puzzle.kind.rawValue
        report.label = puzzle.label
        report.solver = solver
        report.solvedBy = result.solvedBy
        report.status = result.status.rawValue
        report.cutoffReason = result.cutoffReason?.rawValue
        report.reason = result.reason
        report.moves = result.moves
        if let position = result.solvedPosition {
            report.solution = .position(position)
        } else if result.status == .solved {
            report.solution = .moves(result.solution.map(\.text))
            report.steps = result.solution
        }
        report.solutions = result.solutionCount
        report.cluster = result.cluster
        report.expectedMoves = expectedMoves
        report.expectedCluster = expectedCluster
        let statistics = result.statistics
        report.stats = Stats(
            examined: statistics.examined, enqueued: statistics.enqueued,
            examinedPerLevel: statistics.examinedPerLevel, enqueuedPerLevel: statistics.enqueuedPerLevel,
            maxQueue: statistics.maxQueue, finalQueue: statistics.finalQueue,
            statesStored: statistics.statesStored, memoryBytes: statistics.memoryBytes,
            levelReached: statistics.levelReached, seconds: statistics.seconds,
            searchNodes: statistics.searchNodes, guesses: statistics.guesses, propagations: statistics.propagations,
            bounds: statistics.bounds)
        let failure = puzzle.validationFailure(of: result)
        let judgement = AnswerRule.judge(puzzle.evidence(for: result, validationFailure: failure))
        if judgement.isWrong {
            report.matchesExpected = false
            report.disagreement = judgement.reason
            if let failure { report.error = .init(code: "invalid-solution", message: "the solver's solution failed validation: \(failure)") }
        } else if result.status != .cutoff, expectedMoves != nil || (expectedCluster != nil && result.cluster != nil) {
            report.matchesExpected = true
        }
        return report
    }

}
