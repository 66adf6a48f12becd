// Solving one job in a worker and measuring it: wall time, this thread's CPU time, and the
// job's own peak memory.
//
// Peak memory: PeakMemoryMeter.swift.
//
// One bad job never kills the worker: an unreadable puzzle is an `invalid` result, an unknown
// kind or solver a `failed` one, each with its reason.

import Foundation
import GridlockCore
import GridlockWire

public enum JobRunner {
    public static func run(
        _ job: Job, worker: WorkerIdentity, meter: PeakMemoryMeter, cpuClock: JobCPUClock = JobCPUClock(), waited: Bool = true,
        memoryBudgetBytes: Int = SolveOptions.defaultMemoryBudgetBytes, external: [ExternalSolver] = []
    ) -> JobResult {
        var result = JobResult(answering: job, worker: worker, status: .failed)
        let kind = job.kind
        guard kind.runs(job.solver, external: external) else {
            let names = kind.jobNames + external.names(of: kind)
            result.error = "unknown \(kind.rawValue) solver '\(job.solver)'; this worker has \(names.joined(separator: ", ")) (an outside solver needs --external on the worker too)"
            return result
        }
        FaultInjection.hangIfPoisoned(job)
        setUp(job)
        let clock = ContinuousClock()
        meter.begin(now: clock.now)
        result.workerIdleRSSBytes = meter.idleBytes
        cpuClock.start(waited: waited)
        let start = clock.now
        /// Wall and CPU time and peak memory, once the job is done.
        func measure() {
            result.seconds = Double(seconds: start.duration(to: clock.now))
            let usage = ThreadUsage.read()
            result.cpuSeconds = cpuClock.finish(wall: result.seconds, usage: usage)
            result.peakRSSBytes = meter.highWaterMarkBytes(after: usage)
            result.workerIdleRSSBytes = meter.idleBytes
        }
        let puzzle: ParsedPuzzle
        do {
            puzzle = try ParsedPuzzle.parse(job.puzzle, kind: kind, tileOptions: job.options.tileReadOptions, firstLine: job.firstLine)
        } catch {
            cpuClock.forget()
            result.status = .invalid
            result.error = "\(job.source.fileName): \(error.description)"
            return result
        }
        result.expectedMoves = puzzle.expectedMoves
        // A coordinator states the wall limit a CPU limit implies; one that did not still gets it.
        let deadline = job.limits.wallSeconds(given: job.timeoutSeconds).map { start.advanced(by: .seconds($0)) }
        let options = limited(SolveOptions.until(deadline, SolveOptions(maxStates: job.maxStates, memoryBudgetBytes: memoryBudgetBytes)), by: job.limits)
        if let solver = external.named(job.solver, kind: kind) {
            guard JobFingerprint.digest(of: solver.identity) == job.solverDigest else {
                cpuClock.forget()
                result.error = "this worker's outside solver \(solver.name) runs another command than the coordinator's, or runs it otherwise (--external or --external-serve): give every worker and the coordinator the same flags"
                return result
            }
            let outcome = ExternalSolving.run(solver, on: puzzle, deadline: deadline, limits: job.limits, checks: options)
            measure()
            result.take(outcome)
            return result
        }
        if job.solver == PuzzleKind.analysisJob {
            // The analysis is held to the memory limit through its budget; it has no CPU check,
            // so the commands refuse --time-limit with analysis jobs.
            analyze(puzzle, job: job, memoryBudgetBytes: min(memoryBudgetBytes, job.limits.memoryBytes ?? .max), into: &result)
            measure()
            result.judge(expectedCluster: puzzle.expectedCluster)
            return result
        }
        // `runs` above checked the name against the job's kind, which the puzzle was read as: a
        // name the kind lacks is that check's, never a trap here.
        guard let solved = puzzle.solve(with: job.solver, options: options) else {
            cpuClock.forget()
            result.error = "no \(kind.rawValue) solver is named '\(job.solver)'"
            return result
        }
        FaultInjection.slowDown(job.solver, startedAt: start, clock: clock)
        measure()
        result.status = JobStatus(solved.status)
        if let reason = solved.cutoffReason, solved.status == .cutoff {
            // The time used, as an outside solver's cut-off says it: CPU and wall, and the limits.
            let limitsText = [job.limits.cpuSeconds.map { "CPU limit \($0.formatted(decimals: 3)) s" },
                              job.limits.wallSeconds(given: job.timeoutSeconds).map { "wall limit \($0.formatted(decimals: 3)) s" }]
                .compactMap { $0 }.joined(separator: ", ")
            result.error = "cut off (\(reason.rawValue)) after \(solved.statistics.statesStored) states, \(result.cpuSeconds.formatted(decimals: 3)) s of CPU time and \(result.seconds.formatted(decimals: 3)) s of wall time"
                + (limitsText.isEmpty ? "" : " (\(limitsText))")
            result.termination = Termination(reason)
        }
        result.moves = solved.moves
        // A position-answered puzzle (Sudoku) sends its solved position as the one entry.
        result.solution = solved.solvedPosition ?? solved.solution.map(\.text).joined(separator: ", ")
        result.cluster = solved.cluster
        let statistics = solved.statistics
        // Depth-first solvers have no queue: their search nodes and guesses take the columns
        // of boards examined and enqueued.
        result.examined = statistics.examined
        result.enqueued = statistics.guesses ?? statistics.enqueued
        result.maxQueue = statistics.maxQueue
        result.statesStored = statistics.statesStored
        result.memoryBytes = statistics.memoryBytes
        // A search that checks its limit only now and then may finish past it: past the CPU
        // limit is a timeout, whatever it answered, as an outside solver's run is.
        if let limit = job.limits.cpuSeconds, result.cpuSeconds > limit, result.status.isAnswer {
            result.status = .cutoff
            result.error = "cut off (timeout): \(result.cpuSeconds.formatted(decimals: 3)) s of CPU time, past the limit of \(limit.formatted(decimals: 3)) s"
            result.termination = .timeout
            result.moves = nil
            result.solution = ""
            result.judge()
            return result
        }
        if let failure = puzzle.validationFailure(of: solved) {
            result.status = .failed
            result.error = "the solution failed validation: \(failure)"
            result.judge(refutation: result.error)
        } else {
            result.judge(expectedCluster: puzzle.expectedCluster)
        }
        return result
    }
}

extension JobRunner {
    /// What the job's solver needs once per process (idastar-pdb's tables), before the job's
    /// clocks, meter and limits start: a build or a wait for another worker's is setup, said on
    /// standard error, never the job's time. Read apart from the timed parse only for the one
    /// solver that has any, so other jobs pay nothing.
    static func setUp(_ job: Job) {
        guard job.kind == .tiles, job.solver == TilePatternDatabaseSolver().name,
              let puzzle = try? ParsedPuzzle.parse(job.puzzle, kind: job.kind, tileOptions: job.options.tileReadOptions, firstLine: job.firstLine)
        else { return }
        let clock = ContinuousClock()
        let start = clock.now
        if puzzle.setUp(for: job.solver) {
            let seconds = Double(seconds: start.duration(to: clock.now))
            FileHandle.standardError.write(Data("worker: setup: \(job.solver)'s tables ready in \(seconds.formatted(decimals: 2)) s (not part of job \(job.id)'s time)\n".utf8))
        }
    }

    /// A built-in search under the job's limits: its tables held under the memory limit (a
    /// cut-off there is a memout), and stopped once the solving thread has used the CPU limit
    /// (a timeout), checked where it checks its deadline: a system call of about 0.5 µs every
    /// thousand states or so, and only when a CPU limit is set.
    public static func limited(_ options: SolveOptions, by limits: JobLimits) -> SolveOptions {
        var options = options
        if let memory = limits.memoryBytes { options.memoryBudgetBytes = min(options.memoryBudgetBytes, memory) }
        if let cpu = limits.cpuSeconds {
            let wall = options.isCancelled
            let end = ThreadClock.cpuSeconds() + cpu
            options.isCancelled = { wall() || ThreadClock.cpuSeconds() >= end }
            options.stopReason = .timeout
        }
        return options
    }
}

extension JobResult {
    /// An outside solver's outcome: its process's own wall and CPU time and peak memory (the
    /// solver's, as a built-in solver's accounting is), not the worker's.
    mutating func take(_ outcome: ExternalSolving.Outcome) {
        status = outcome.status
        moves = outcome.moves
        solution = outcome.solution
        error = outcome.error
        seconds = outcome.wallSeconds
        cpuSeconds = outcome.cpuSeconds
        memoryBytes = outcome.peakRSSBytes
        solverStats = outcome.stats
        termination = outcome.termination
        // A claim of no solution that neither the input nor a built-in search could check is unknown.
        judge(
            refutation: outcome.failure == .wrongAnswer ? outcome.error ?? "wrong answer" : nil,
            unchecked: outcome.status == .unsolvable && !outcome.unsolvableConfirmed)
    }
}

extension Termination {
    /// A built-in search's cut-off, as the field names it: past its time or its memory; the
    /// other limits (states, steps) are the search giving up, not a termination.
    init?(_ reason: CutoffReason) {
        switch reason {
        case .timeout: self = .timeout
        case .memoryBudget: self = .memout
        default: return nil
        }
    }
}

extension JobRunner {
    /// An analysis job: the best moves in `moves`, the reachable states in `cluster` and
    /// `examined`, the whole analysis as JSON in the solution. "solved" when a goal
    /// is reachable, "unsolvable" when not, "failed" with the reason when it cannot be analysed.
    static func analyze(_ puzzle: ParsedPuzzle, job: Job, memoryBudgetBytes: Int, into result: inout JobResult) {
        switch StateSpaceAnalysis.analyze(puzzle, maxStates: job.maxStates, memoryBudgetBytes: memoryBudgetBytes) {
        case .success(let analysis):
            result.status = analysis.bestMoves == nil ? .unsolvable : .solved
            result.moves = analysis.bestMoves
            result.cluster = analysis.reachable
            result.examined = analysis.reachable
            result.statesStored = analysis.reachable
            result.solution = JSONLine.encode(analysis)
        case .failure(let refusal):
            result.status = .failed
            result.error = refusal.description
        }
    }
}

extension JobStatus {
    init(_ status: SolveStatus) {
        switch status {
        case .solved: self = .solved
        case .unsolvable: self = .unsolvable
        case .cutoff: self = .cutoff
        }
    }
}

extension JobReadOptions {
    /// The tile options a job was read with, as the parser takes them.
    var tileReadOptions: TileReadOptions {
        let size = tileWidth.flatMap { width in tileHeight.map { (width: width, height: $0) } }
        return TileReadOptions(goal: tileGoal.flatMap(TileGoal.init(rawValue:)), size: size)
    }
}

extension String {
    /// The file of a "file:line" source.
    var fileName: Substring {
        guard let colon = lastIndex(of: ":") else { return self[...] }
        return self[..<colon]
    }
}
