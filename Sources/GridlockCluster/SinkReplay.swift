// The sink's own check of every answer it stores (issue 48, point 2). A worker holding the key
// was believed outright: 200 rows whose "solution" was the word `validated` were stored as
// solved and correct. Now every solution is replayed on the job's puzzle by the kind's
// validator, the same one `gridlock check` uses, before it is stored; an answer that does not
// replay is stored as wrong, naming the worker that sent it. The input's MOVES are read from the
// puzzle too, not taken from the worker's echo of them, which the rule (`checkedVerdict`) then
// holds the answer's length and a claim of no solution to.
//
// What it cannot see: a claim of no solution where the input gives no MOVES (only a search
// could refute it). And the replay checks the answer against the puzzle the result names: with
// CURVE keys that is the job's (the lease binds it, and workers cannot make leases); with a
// shared key every worker can make leases, so a worker could answer another puzzle than its job.

import GridlockCore
import GridlockWire

enum SinkReplay {
    /// The longest solution a sink stores: far past any answer of the bundled kinds (a
    /// 15-puzzle's 80 moves are 700 bytes, an analysis's report 1-2 KB), and a bound on what one
    /// result can make it write and replay (64 rows of 15 MiB made a 1 GB database).
    static let maximumSolutionBytes = 64 << 10

    /// What the sink makes of an answer.
    struct Replay: Equatable {
        /// Why the answer is refused; nil when it replays, or there is nothing to replay.
        var refutation: String?
        /// The input's MOVES as the sink read them from the puzzle, when the answer's verdict
        /// rests on them (a claim of a solution or of none) and the puzzle could be read.
        var expectedMoves: Int??
        /// The longest text one of the puzzle's moves can have, when it was read.
        var longestMoveBytes: Int?
    }

    /// Replays the answer of `result`, and reads its puzzle's MOVES.
    static func replay(_ result: borrowing JobResult) -> Replay {
        guard result.status == .solved || result.status == .unsolvable else { return Replay() }
        let bytes = result.solution.utf8.count
        guard bytes <= maximumSolutionBytes else {
            return Replay(refutation: "its solution is \(bytes) bytes, past the \(maximumSolutionBytes) a sink stores")
        }
        if result.status == .solved, result.kind == .rushhour, result.solver != PuzzleKind.analysisJob, let moves = result.moves,
           let expected = RushHourQuickReplay.expectedMovesIfConfirmed(result.solution, moves: moves, onDatabaseLine: result.puzzle) {
            return Replay(expectedMoves: .some(expected), longestMoveBytes: RushHourPuzzle.databaseLongestMoveBytes)
        }
        let puzzle: ParsedPuzzle
        do {
            puzzle = try ParsedPuzzle.parse(result.puzzle, kind: result.kind, tileOptions: result.options.tileReadOptions)
        } catch {
            let claim = result.status == .solved ? "to solve" : "no solution for"
            return Replay(refutation: "it claims \(claim) a puzzle that cannot be read (\(error.message.excerpt()))")
        }
        // An analysis's "solution" is its report, as JSON; a claim of none has nothing to replay.
        guard result.status == .solved, result.solver != PuzzleKind.analysisJob else {
            return Replay(expectedMoves: .some(puzzle.expectedMoves), longestMoveBytes: puzzle.longestMoveBytes)
        }
        return Replay(
            refutation: refutation(of: result.solution, moves: result.moves, on: puzzle), expectedMoves: .some(puzzle.expectedMoves),
            longestMoveBytes: puzzle.longestMoveBytes)
    }

    /// Why the validator refuses `solution` (`moves` long) on `puzzle`, or nil.
    private static func refutation(of solution: String, moves: Int?, on puzzle: ParsedPuzzle) -> String? {
        if puzzle.sudoku != nil {
            var solved = SolveResult(status: .solved, statistics: SearchStatistics())
            solved.solvedPosition = solution
            return puzzle.validationFailure(of: solved).map { "the validator refused it: \($0.excerpt(200))" }
        }
        guard let moves else { return "it claims a solution without saying how many moves it takes" }
        // Counted before the moves are split into strings: a liar's count costs nothing.
        let listed = solution.isEmpty ? 0 : solution.utf8.split(separator: 0x2C, omittingEmptySubsequences: false).count
        guard listed == moves else {
            return "it claims \(moves) move\(moves == 1 ? "" : "s") and its solution lists \(listed)"
        }
        let texts = solution.isEmpty ? [] : solution.split(separator: ", ", omittingEmptySubsequences: false).map(String.init)
        guard texts.count == moves else { return "its moves are not separated by \", \"" }
        let replayed: [SolutionMove]
        do {
            replayed = try AnswerCheck.moves(texts, for: puzzle)
        } catch {
            return "the validator refused it: \(error.description.excerpt(200))"
        }
        let solved = SolveResult(status: .solved, solution: replayed, statistics: SearchStatistics())
        return puzzle.validationFailure(of: solved).map { "the validator refused it: \($0.excerpt(200))" }
    }
}

extension SinkReplay {
    /// The most bytes kept of the texts that nothing replays: a row's error, and what an answer
    /// that is not a solution carries as one (honest workers send none).
    static let maximumNoteBytes = WireProtocol.maximumReasonBytes
    /// An outside solver's stats, as JSON: dropped whole past this, since a part is not JSON.
    static let maximumSolverStatsBytes = 64 << 10

    /// Whether the result carries more than the bounds above: then `bound` it.
    static func exceedsBounds(_ result: borrowing JobResult) -> Bool {
        (result.status != .solved && result.solution.utf8.count > maximumNoteBytes)
            || (result.solverStats?.utf8.count ?? 0) > maximumSolverStatsBytes
            || (result.error?.utf8.count ?? 0) > maximumNoteBytes
    }

    /// Cuts what a result carries beyond its answer to the bounds above, so that no result
    /// makes a row larger than its answer could be (64 results of 15 MiB made a 1 GB
    /// database). The error says what was cut, and from which worker.
    static func bound(_ result: inout JobResult) {
        var cut: [String] = []
        if result.status != .solved, result.solution.utf8.count > maximumNoteBytes {
            cut.append("a \(result.status.rawValue) result's solution of \(result.solution.utf8.count) bytes")
            result.solution = result.solution.excerpt(maximumNoteBytes)
        }
        if let stats = result.solverStats, stats.utf8.count > maximumSolverStatsBytes {
            cut.append("solver stats of \(stats.utf8.count) bytes")
            result.solverStats = nil
        }
        if let error = result.error, error.utf8.count > maximumNoteBytes {
            cut.append("an error of \(error.utf8.count) bytes")
            result.error = error.excerpt(maximumNoteBytes)
        }
        result.error = (result.error.map { $0 + "; " } ?? "") + "the sink cut \(cut.joined(separator: ", ")) from worker \(result.worker)"
    }

    /// The least of a solution kept when it is cut to its puzzle: enough to see what it was.
    static let keptPastPuzzleBytes = 256

    /// Cuts a solution that replays but lists more moves than its puzzle's MOVES (so the rule
    /// counts it wrong) to what those MOVES could take (`expected` moves of at most
    /// `longestMove` bytes each, with their separators), or to `keptPastPuzzleBytes`,
    /// whichever is more. Called after the replay, which saw it whole. An answer of the input's
    /// MOVES is kept whole, however its moves are written; an analysis's report is no list of
    /// moves; a refused answer is cut by its own rule. Returns whether it cut.
    static func boundToPuzzle(_ result: inout JobResult, expected: Int?, longestMove: Int?) -> Bool {
        guard result.status == .solved, result.solver != PuzzleKind.analysisJob, let expected, let longestMove,
              let moves = result.moves, moves > expected else { return false }
        let allowed = max(ParsedPuzzle.longestSolutionBytes(moves: expected, longestMoveBytes: longestMove), keptPastPuzzleBytes)
        let bytes = result.solution.utf8.count
        guard bytes > allowed else { return false }
        result.solution = result.solution.excerpt(allowed)
        let takes = expected < 0 ? "no moves (the input calls it unsolvable)" : "\(expected) move\(expected == 1 ? "" : "s") of at most \(longestMove) bytes"
        result.error = (result.error.map { $0 + "; " } ?? "")
            + "the sink cut a solution of \(bytes) bytes from worker \(result.worker) to \(allowed): its puzzle's answer takes \(takes)"
        return true
    }
}
