// The rows of a results database as the rest of Gridlock reads them back: a batch's record,
// a stored result, a row that would not decode, and the few columns the tables need.

import Foundation
import GRDB
import GridlockWire

/// Where and how a batch ran.
public struct BatchEnvironment: Sendable, Hashable, Codable {
    public var id: String
    public var started: String
    public var host: String
    public var cores: Int
    public var configuration: String
    public var revision: String
    public var solvers: String
    public var jobs: Int
    /// The limits every job ran under (JobLimits; wall time is `--timeout`); nil: none.
    public var timeLimitSeconds: Double?
    public var wallLimitSeconds: Double?
    public var memoryLimitBytes: Int?
    /// What it takes to run the batch again; nil for a batch recorded before recipes.
    public var recipe: BatchRecipe?

    public init(id: String, started: String, host: String, cores: Int, configuration: String, revision: String, solvers: String, jobs: Int) {
        self.id = id
        self.started = started
        self.host = host
        self.cores = cores
        self.configuration = configuration
        self.revision = revision
        self.solvers = solvers
        self.jobs = jobs
    }

    /// A coordinator's record of its batch, as its sink keeps it.
    public init(_ record: BatchRecord) {
        self.init(
            id: record.batch, started: record.started, host: record.host, cores: record.cores, configuration: record.configuration,
            revision: record.revision, solvers: record.solvers, jobs: record.jobs)
        timeLimitSeconds = record.limits.cpuSeconds
        wallLimitSeconds = record.wallLimitSeconds
        memoryLimitBytes = record.limits.memoryBytes
        recipe = record.recipe
    }

    /// The record a coordinator sends its sink of this batch.
    public var record: BatchRecord {
        BatchRecord(
            batch: id, started: started, host: host, cores: cores, configuration: configuration, revision: revision, solvers: solvers,
            jobs: jobs, limits: JobLimits(cpuSeconds: timeLimitSeconds, memoryBytes: memoryLimitBytes), wallLimitSeconds: wallLimitSeconds,
            recipe: recipe)
    }

    /// A recipe as the batches table keeps it.
    static func json(_ recipe: BatchRecipe) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(recipe)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func recipe(json: String) -> BatchRecipe? {
        try? JSONDecoder().decode(BatchRecipe.self, from: Data(json.utf8))
    }

    /// "CPU 1 s, wall 30 s, memory 256 MiB", or nil without limits.
    public var limitsText: String? {
        // Three significant digits: a limit of a microsecond is not "0.00 s".
        let seconds = { (value: Double) in String(format: "%.3g s", value) }
        let parts = [timeLimitSeconds.map { "CPU " + seconds($0) }, wallLimitSeconds.map { "wall " + seconds($0) },
                     memoryLimitBytes.map { "memory \($0.bytes)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

/// One row of `results`.
public struct StoredResult: Sendable, Hashable, Codable {
    public var batch: String
    public var job: Int
    public var kind: String
    public var puzzle: String
    public var solver: String
    public var source: String
    public var status: String
    public var moves: Int?
    public var solution: String
    public var cluster: Int?
    public var error: String?
    public var attempts: Int
    public var worker: String
    public var host: String
    public var examined: Int
    public var enqueued: Int
    public var maxQueue: Int
    public var statesStored: Int
    public var memoryBytes: Int
    public var seconds: Double
    public var cpuSeconds: Double
    public var peakRSSBytes: Int
    public var expectedMoves: Int?
    public var fingerprint: String

    /// Throws, naming the column, where another program stored what this field cannot hold.
    init(row: Row) throws {
        batch = try row.decode(forColumn: "batch")
        job = try row.decode(forColumn: "job")
        kind = try row.decode(forColumn: "kind")
        puzzle = try row.decode(forColumn: "puzzle")
        solver = try row.decode(forColumn: "solver")
        source = try row.decode(forColumn: "source")
        status = try row.decode(forColumn: "status")
        moves = try row.decode(forColumn: "moves")
        solution = try row.decode(forColumn: "solution")
        cluster = try row.decode(forColumn: "cluster")
        error = try row.decode(forColumn: "error")
        attempts = try row.decode(forColumn: "attempt")
        worker = try row.decode(forColumn: "worker")
        host = try row.decode(forColumn: "host")
        examined = try row.decode(forColumn: "examined")
        enqueued = try row.decode(forColumn: "enqueued")
        maxQueue = try row.decode(forColumn: "max_queue")
        statesStored = try row.decode(forColumn: "states")
        memoryBytes = try row.decode(forColumn: "memory_bytes")
        seconds = try row.decode(forColumn: "seconds")
        cpuSeconds = try row.decode(forColumn: "cpu_seconds")
        peakRSSBytes = try row.decode(forColumn: "peak_rss_bytes")
        expectedMoves = try row.decode(forColumn: "expected_moves")
        fingerprint = JobFingerprint(storedValue: try row.decode(forColumn: "fingerprint")).description
    }
}

/// What the tables need of one job.
/// A stored row the tables cannot use, and why.
public struct UndecodableRow: Sendable, CustomStringConvertible {
    public var batch: String
    public var job: Int
    public var reason: String

    /// The numeric columns the tables read, with the storage each may have.
    static let numericColumns: [(name: String, nullable: Bool, real: Bool)] = [
        ("moves", true, false), ("expected_moves", true, false), ("seconds", false, true), ("examined", false, false),
        ("peak_rss_bytes", false, false),
    ]

    /// Why a row with this kind, status and numeric storage types cannot be summarised; nil
    /// when it can.
    static func reason(kind: String?, status: String?, types: [String]) -> String? {
        guard let kind, PuzzleKind(rawValue: kind) != nil else { return "kind '\(kind ?? "NULL")' is not one this build knows" }
        guard let status, JobStatus(rawValue: status) != nil else { return "status '\(status ?? "NULL")' is not one this build knows" }
        for (column, type) in zip(numericColumns, types) {
            let allowed = ["integer"] + (column.real ? ["real"] : []) + (column.nullable ? ["null"] : [])
            if !allowed.contains(type) { return "\(column.name) holds \(type), not a number" }
        }
        return nil
    }

    public var description: String { "batch \(batch) job \(job): \(reason)".printable }

    /// Why a row is left out, as an error: its text is the reason.
    struct Reason: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

public struct JobSummary: Sendable {
    /// Times a job can have taken, in seconds: up to about 31 years.
    static let plausibleSeconds = 0.0...1e9

    /// What no run of Gridlock stores: a time out of range, a negative count.
    var implausibility: String? {
        if !Self.plausibleSeconds.contains(seconds) { return "seconds holds \(seconds), not a time from 0 to 1e9" }
        if examined < 0 { return "examined holds \(examined), not a count" }
        if peakRSSBytes < 0 { return "peak_rss_bytes holds \(peakRSSBytes), not a size" }
        return nil
    }

    public var kind: PuzzleKind
    public var solver: String
    public var status: JobStatus
    public var moves: Int?
    public var expectedMoves: Int?
    public var seconds: Double
    public var examined: Int
    public var peakRSSBytes: Int
    public var host: String
    public var worker: String
    /// The stored verdict (JobResult.checkedVerdict).
    public var verdict: AnswerVerdict = .unknown
    /// The solver's own peak memory, and the worker's resident set when idle.
    public var memoryBytes = 0
    public var idleRSSBytes = 0
    /// What the scores need (SolverScores): the puzzle's batch and record, the CPU time, and
    /// why the run ended early.
    public var batch = ""
    public var source = ""
    public var cpuSeconds = 0.0
    public var termination: Termination?
    /// Which run of its puzzle (`--repeats`), for the paired ratios.
    public var repetition = 0

    /// Whether the answer is wrong, by the one rule: its verdict says so, or it contradicts the input's.
    public var isWrong: Bool {
        AnswerRule.storedRowIsWrong(verdict: verdict, status: status, moves: moves, expectedMoves: expectedMoves)
    }
}
