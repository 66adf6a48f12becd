// The scores of the solver competitions (SAT, SMT), per kind and solver: puzzles solved (an
// answer the validator and the input accept, a proof of no solution included), wrong answers,
// timeouts, memouts, PAR-2 (the mean time, an unsolved puzzle counting twice the time limit),
// and each solver's share of the virtual best solver (VBS), which takes the fastest right
// answer of any solver for each puzzle; and the VBS's own row.
//
// Every figure is per batch (issue 43: a solver's PAR-2 read 0.25 s for its batch and 1.59 s
// when every batch in the file was pooled), and of one time, `basis`, which the tables name.
//
// A puzzle's jobs (one per solver) share the record's source (file:line) in one batch. Rows read
// from the database come in job order, so a puzzle is complete when the next begins; results
// folded as they are stored come in any order, so a puzzle is complete once each of its kind's
// solvers has answered (`expectedSolvers`). Either way only unfinished puzzles are held.

import GridlockCore
import GridlockWire

public struct SolverScores: Sendable {
    /// One job as the scores see it.
    public struct Job: Sendable, Hashable {
        public var batch: String
        public var source: String
        public var kind: PuzzleKind
        public var solver: String
        /// A right answer: solved or proved unsolvable, and not wrong.
        public var solved: Bool
        public var wrong: Bool
        public var termination: Termination?
        /// The time that counts, of the scores' `basis`.
        public var seconds: Double
        /// Which run of the puzzle this was (`--repeats`), from 0: the paired ratios pair runs by it.
        public var repetition = 0

        public init(
            batch: String, source: String, kind: PuzzleKind, solver: String, solved: Bool, wrong: Bool, termination: Termination?, seconds: Double,
            repetition: Int = 0
        ) {
            self.batch = batch
            self.source = source
            self.kind = kind
            self.solver = solver
            self.solved = solved
            self.wrong = wrong
            self.termination = termination
            self.seconds = seconds
            self.repetition = repetition
        }
    }

    /// One row of the scores table; `solver` is "VBS" in the virtual best solver's row.
    public struct Row: Sendable, Hashable {
        public var batch: String
        public var kind: PuzzleKind
        /// The time PAR-2 and the VBS are of.
        public var basis = TimeBasis.cpu
        public var solver: String
        public var puzzles = 0
        public var solved = 0
        public var wrong = 0
        public var timeouts = 0
        public var memouts = 0
        /// Nil without a time limit: an unsolved puzzle has no time to count.
        public var par2Seconds: Double?
        /// The puzzles where this solver's right answer was the fastest (ties count for each),
        /// and their share of the puzzles the VBS solved.
        public var fastest = 0
        public var vbsShare: Double?
    }

    /// The limit PAR-2 doubles, of the basis (`TimeBasis.limit`): every batch's, or each
    /// batch's own in `batchLimits`.
    public var limitSeconds: Double?
    /// A batch's own limit, where it has one: a report over several batches scores each under
    /// its own.
    public var batchLimits: [String: Double] = [:]
    /// The time every figure is of.
    public var basis: TimeBasis
    /// How many solvers each kind's puzzles have, when the jobs come in any order.
    public var expectedSolvers: [PuzzleKind: Int]?

    private struct Tally: Sendable {
        var row: Row
        var seconds = 0.0

        mutating func count(_ job: Job, fastest: Double?, limit: Double?) {
            row.puzzles += 1
            if job.solved {
                row.solved += 1
                seconds += job.seconds
                if job.seconds == fastest { row.fastest += 1 }
            } else if let limit {
                seconds += 2 * limit
            }
            if job.wrong { row.wrong += 1 }
            if job.termination == .timeout { row.timeouts += 1 }
            if job.termination == .memout { row.memouts += 1 }
        }

        func finished(limit: Double?, vbsSolved: Int) -> Row {
            var row = row
            // Without a limit an unsolved puzzle has no time: PAR-2 only where every puzzle has one.
            row.par2Seconds = row.puzzles > 0 && (limit != nil || row.solved == row.puzzles) ? seconds / Double(row.puzzles) : nil
            row.vbsShare = vbsSolved > 0 ? Double(row.fastest) / Double(vbsSolved) : nil
            return row
        }
    }

    private struct Key: Hashable {
        var batch: String
        var kind: PuzzleKind
        var solver: String
    }

    struct BatchKind: Hashable {
        var batch: String
        var kind: PuzzleKind
    }

    private var tallies: [Key: Tally] = [:]
    /// Each pair of a kind's solvers, the first named before the second in name order, folded
    /// puzzle by puzzle (SolverScores+Ratios.swift).
    var ratios: [RatioKey: RepeatedPairedRatio] = [:]
    private var order: [Key] = []
    private var best: [BatchKind: Tally] = [:]
    /// The batches in the order their first puzzle was scored.
    public private(set) var batches: [String] = []
    /// The solvers each batch ran on each kind.
    private(set) var ranSolvers: [BatchKind: Set<String>] = [:]
    /// Right answers with no CPU time (rows of a build that did not measure it), counted
    /// under the CPU basis: their figures mean nothing, and the report says so.
    public private(set) var untimedAnswers = 0
    private struct Puzzle: Hashable {
        var batch: String
        var source: String
    }

    private var pending: [Puzzle: [Job]] = [:]
    private var lastPuzzle: Puzzle?
    /// The most unfinished puzzles held: past it the scores are given up, not the memory.
    public static let maximumPending = 100_000
    public private(set) var gaveUp = false

    /// Whether jobs are scored at all: a batch of one solver and no limit has nothing to
    /// score, and its fold (millions of trivial jobs, on the sink's thread) skips the work.
    public var enabled = true
    public init(basis: TimeBasis = .cpu, limitSeconds: Double? = nil, expectedSolvers: [PuzzleKind: Int]? = nil) {
        self.basis = basis
        self.limitSeconds = limitSeconds
        self.expectedSolvers = expectedSolvers
    }

    /// The scores of a batch with these limits, its jobs folded in any order.
    public init(basis: TimeBasis = .cpu, limits: JobLimits, wallLimitSeconds: Double?, expectedSolvers: [PuzzleKind: Int]?) {
        self.init(basis: basis, limitSeconds: basis.limit(cpuSeconds: limits.cpuSeconds, wallSeconds: wallLimitSeconds), expectedSolvers: expectedSolvers)
        enabled = limitSeconds != nil || (expectedSolvers ?? [:]).values.contains { $0 > 1 }
    }

    /// The limit PAR-2 doubles in `batch`.
    func limit(of batch: String) -> Double? { batchLimits[batch] ?? limitSeconds }

    /// Whether any batch has a limit (PAR-2 means something without one only where every
    /// puzzle was solved).
    public var hasLimit: Bool { limitSeconds != nil || !batchLimits.isEmpty }

    /// A job of the tables, scored: invalid records are no puzzles.
    public mutating func add(_ job: StoredRow) {
        guard enabled, job.status != .invalid else { return }
        if basis == .cpu, job.status.isAnswer, job.cpuSeconds <= 0, job.seconds > 0 { untimedAnswers += 1 }
        add(Job(
            batch: job.batch, source: job.source, kind: job.kind, solver: job.solver, solved: job.status.isAnswer && !job.isWrong,
            wrong: job.isWrong, termination: job.termination,
            seconds: StoredRow.plausibleSeconds.clamping(basis == .cpu ? job.cpuSeconds : job.seconds), repetition: job.repetition))
    }

    public mutating func add(_ job: Job) {
        guard !gaveUp else { return }
        let puzzle = Puzzle(batch: job.batch, source: job.source)
        if expectedSolvers == nil, let lastPuzzle, lastPuzzle != puzzle { score(lastPuzzle) }
        lastPuzzle = puzzle
        pending[puzzle, default: []].append(job)
        if let expected = expectedSolvers?[job.kind], pending[puzzle]!.count >= expected { score(puzzle) }
        if pending.count > Self.maximumPending {
            gaveUp = true
            pending = [:]
        }
    }

    /// Every puzzle still held is scored with the answers it has.
    public mutating func finish() {
        for puzzle in pending.keys.sorted(by: { ($0.batch, $0.source) < ($1.batch, $1.source) }) { score(puzzle) }
        lastPuzzle = nil
    }

    /// A solver's runs of one puzzle (`--repeats`) as one: solved when every run answered
    /// right, in their mean time; wrong, timed out or out of memory when any run was.
    static func combined(_ runs: [Job]) -> [Job] {
        var order: [String] = []
        var bySolver: [String: [Job]] = [:]
        for run in runs {
            if bySolver[run.solver] == nil { order.append(run.solver) }
            bySolver[run.solver, default: []].append(run)
        }
        return order.map { solver in
            let runs = bySolver[solver]!
            guard runs.count > 1 else { return runs[0] }
            var job = runs[0]
            job.solved = runs.allSatisfy(\.solved)
            job.wrong = runs.contains(where: \.wrong)
            job.termination = runs.lazy.compactMap(\.termination).first
            job.seconds = runs.map(\.seconds).reduce(0, +) / Double(runs.count)
            return job
        }
    }

    private mutating func score(_ puzzle: Puzzle) {
        guard let runs = pending.removeValue(forKey: puzzle), let kind = runs.first?.kind else { return }
        if batches.last != puzzle.batch, !batches.contains(puzzle.batch) { batches.append(puzzle.batch) }
        let limitSeconds = limit(of: puzzle.batch)
        foldRatios(runs)
        let jobs = Self.combined(runs)
        let fastest = jobs.filter(\.solved).map(\.seconds).min()
        for job in jobs {
            ranSolvers[BatchKind(batch: puzzle.batch, kind: job.kind), default: []].insert(job.solver)
            let key = Key(batch: puzzle.batch, kind: job.kind, solver: job.solver)
            if tallies[key] == nil {
                tallies[key] = Tally(row: Row(batch: puzzle.batch, kind: job.kind, solver: job.solver))
                order.append(key)
            }
            tallies[key]!.count(job, fastest: fastest, limit: limitSeconds)
        }
        let batchKind = BatchKind(batch: puzzle.batch, kind: kind)
        var vbs = best[batchKind] ?? Tally(row: Row(batch: puzzle.batch, kind: kind, solver: "VBS"))
        vbs.row.puzzles += 1
        if let fastest {
            vbs.row.solved += 1
            vbs.row.fastest += 1
            vbs.seconds += fastest
        } else if let limitSeconds {
            vbs.seconds += 2 * limitSeconds
        }
        best[batchKind] = vbs
    }

    /// Per batch and kind, each solver in the order first seen, then the VBS.
    public var rows: [Row] {
        var rows: [Row] = []
        for batchKind in order.map({ BatchKind(batch: $0.batch, kind: $0.kind) }).uniqued() {
            guard let vbs = best[batchKind] else { continue }
            let limit = limit(of: batchKind.batch)
            for key in order where key.batch == batchKind.batch && key.kind == batchKind.kind {
                rows.append(tallies[key]!.finished(limit: limit, vbsSolved: vbs.row.solved))
            }
            rows.append(vbs.finished(limit: limit, vbsSolved: vbs.row.solved))
        }
        let basis = basis
        return rows.map { row in
            var row = row
            row.basis = basis
            return row
        }
    }
}

private extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
