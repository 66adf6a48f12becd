// Solving one job in a worker and measuring it: wall time, this thread's CPU time, and the
// job's own peak memory.
//
// Peak memory: writing 5 to /proc/self/clear_refs resets the kernel's high-water mark of the
// process's resident set, so VmHWM read from /proc/self/status after the job is that job's
// peak (on top of what the process already held). Both files stay open for the worker's life:
// opening them per job cost 12 µs, as much as solving a trivial job. Reading the status file
// still costs about 4 µs (the kernel prints all of it), so the meter asks getrusage first: its
// ru_maxrss is the same high-water mark, but never below a floor the kernel carried over at
// exec from the process that spawned us (the batch's own peak). A reading above that floor is
// exact; only one at or below it is read from the status file.
//
// One bad job never kills the worker: an unreadable puzzle is an `invalid` result, an unknown
// kind or solver a `failed` one, each with its reason.

import Foundation
import GridlockCore
import GridlockWire

public enum JobRunner {
    public static func run(_ job: Job, worker: WorkerIdentity, meter: PeakMemoryMeter) -> JobResult {
        var result = JobResult(answering: job, worker: worker, status: .failed)
        let kind = job.kind
        guard kind.jobNames.contains(job.solver) else {
            result.error = "unknown \(kind.rawValue) solver '\(job.solver)'; this worker has \(kind.jobNames.joined(separator: ", "))"
            return result
        }
        if FaultInjection.hangsOn(job) {
            // A job that ignores its time limit, for the poison-job test: sleeps until killed.
            while true { sleep(60) }
        }
        meter.reset()
        let cpuStart = ThreadClock.cpuSeconds()
        let clock = ContinuousClock()
        let start = clock.now
        let puzzle: ParsedPuzzle
        do {
            puzzle = try ParsedPuzzle.parse(job.puzzle, kind: kind, tileOptions: job.options.tileReadOptions, firstLine: job.firstLine)
        } catch {
            result.status = .invalid
            result.error = "\(job.source.fileName): \(error.description)"
            return result
        }
        result.expectedMoves = puzzle.expectedMoves
        let deadline = job.timeoutSeconds.map { start.advanced(by: .seconds($0)) }
        let options = SolveOptions(maxStates: job.maxStates) {
            deadline.map { ContinuousClock().now >= $0 } ?? false
        }
        if job.solver == PuzzleKind.analysisJob {
            analyze(puzzle, job: job, into: &result)
            result.seconds = Double(seconds: start.duration(to: clock.now))
            result.cpuSeconds = ThreadClock.cpuSeconds() - cpuStart
            result.peakRSSBytes = meter.highWaterMarkBytes()
            return result
        }
        let solved = puzzle.solve(with: job.solver, options: options)!
        result.seconds = Double(seconds: start.duration(to: clock.now))
        result.cpuSeconds = ThreadClock.cpuSeconds() - cpuStart
        result.peakRSSBytes = meter.highWaterMarkBytes()
        result.status = JobStatus(solved.status)
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
        if let failure = puzzle.validationFailure(of: solved) {
            result.status = .failed
            result.error = "the solution failed validation: \(failure)"
        }
        return result
    }
}

extension JobRunner {
    /// An analysis job: the best moves in `moves`, the reachable states in `cluster` and
    /// `examined`, the whole analysis as JSON in the solution. "solved" when a goal
    /// is reachable, "unsolvable" when not, "failed" with the reason when it cannot be analysed.
    static func analyze(_ puzzle: ParsedPuzzle, job: Job, into result: inout JobResult) {
        switch StateSpaceAnalysis.analyze(puzzle, maxStates: job.maxStates) {
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

enum ThreadClock {
    /// CPU seconds used by the calling thread.
    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

/// The process's resident high-water mark, reset before a job and read after it.
/// Used by one thread at a time: made on the socket thread, then handed to the solver thread.
public final class PeakMemoryMeter: @unchecked Sendable {
    private let clearRefs = open("/proc/self/clear_refs", O_WRONLY)
    private let status = open("/proc/self/status", O_RDONLY)
    /// The most the exec-time floor under getrusage's figure can be: readings above it are the
    /// high-water mark itself.
    private var rusageFloorBound = Int.max
    /// Jobs measured, and those that needed the status file: for the tests.
    private(set) var readings = 0
    private(set) var statusReadings = 0

    public init() {
        guard clearRefs >= 0, status >= 0 else { return }
        reset()
        let rusage = Self.rusageHighWaterMarkBytes()
        let status = statusHighWaterMarkBytes()
        // getrusage = max(floor, mark): above the mark, it is the floor; else the floor is at
        // most the mark.
        rusageFloorBound = rusage > status ? rusage : status
    }

    deinit {
        if clearRefs >= 0 { close(clearRefs) }
        if status >= 0 { close(status) }
    }

    func reset() {
        guard clearRefs >= 0 else { return }
        _ = write(clearRefs, "5", 1)
    }

    /// The high-water mark since the last reset, in bytes (0 where /proc is missing).
    func highWaterMarkBytes() -> Int {
        readings += 1
        let rusage = Self.rusageHighWaterMarkBytes()
        return Self.highWaterMark(rusage: rusage, floorBound: rusageFloorBound) {
            statusReadings += 1
            let status = statusHighWaterMarkBytes()
            // Each status reading bounds the floor again: getrusage above it is the floor itself,
            // equal to it leaves the floor at most this (the process's memory may have shrunk).
            rusageFloorBound = rusage > status ? rusage : min(rusageFloorBound, status)
            return status
        }
    }

    /// getrusage's figure when it is above the floor the kernel may put under it, else the
    /// status file's.
    static func highWaterMark(rusage: Int, floorBound: Int, status: () -> Int) -> Int {
        rusage > floorBound ? rusage : status()
    }

    private static func rusageHighWaterMarkBytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return usage.ru_maxrss * 1024
    }

    /// VmHWM from /proc/self/status. Read with plain system calls into a stack buffer: it may
    /// run after every job, trivial ones included.
    private func statusHighWaterMarkBytes() -> Int {
        guard status >= 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            // A /proc file is generated afresh by each read from offset 0.
            let count = pread(status, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return 0 }
            let text = UnsafeBufferPointer(rebasing: buffer[..<count])
            let key = Array("VmHWM:".utf8)
            guard let start = (0...(max(0, count - key.count))).first(where: { index in
                (index == 0 || text[index - 1] == 0x0A) && text[index..<(index + key.count)].elementsEqual(key)
            }) else { return 0 }
            var kilobytes = 0
            var index = start + key.count
            while index < count, text[index] != 0x0A {
                if (0x30...0x39).contains(text[index]) { kilobytes = kilobytes * 10 + Int(text[index] - 0x30) }
                index += 1
            }
            return kilobytes * 1024
        }
    }
}

/// Faults on request, for the reliability tests, off unless GRIDLOCK_FAULT_INJECTION is set:
/// `hang-on-poison` makes a worker hang for good on any puzzle whose text contains POISON,
/// ignoring its time limit; `crash-at-start` makes every worker process abort as it starts.
public enum FaultInjection {
    static let mode = ProcessInfo.processInfo.environment["GRIDLOCK_FAULT_INJECTION"]

    public static var crashesAtStart: Bool { mode == "crash-at-start" }

    static func hangsOn(_ job: Job) -> Bool {
        mode == "hang-on-poison" && job.puzzle.contains("POISON")
    }
}
