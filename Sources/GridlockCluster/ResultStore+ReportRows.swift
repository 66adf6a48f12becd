// The columns the HTML report draws from, row by row through a cursor (a batch of millions of
// jobs is folded without being loaded). A row that does not decode is counted and skipped,
// as the tables do.

import GRDB
import GridlockCore

/// One stored job, as the HTML report reads it.
public struct ReportRow: Sendable, Hashable {
    public var batch: String
    public var job: Int
    public var kind: PuzzleKind
    public var puzzle: String
    public var solver: String
    public var source: String
    public var status: JobStatus
    public var moves: Int?
    public var expectedMoves: Int?
    public var error: String?
    public var worker: String
    public var seconds: Double
    public var examined: Int
    public var statesStored: Int
    public var memoryBytes: Int
    public var peakRSSBytes: Int
    /// When the sink stored it, in seconds since 1970.
    public var storedAt: Double
    /// The stored verdict (JobResult.checkedVerdict).
    public var verdict: AnswerVerdict
    /// The solver's CPU time.
    public var cpuSeconds: Double

    /// Store times a row can have: from 1970 to about the year 5000.
    public static let plausibleStoredAt = 0.0...1e11

    /// Whether the answer is wrong, by the one rule (the tables' `wrong`).
    public var isWrong: Bool {
        AnswerRule.storedRowIsWrong(verdict: verdict, status: status, moves: moves, expectedMoves: expectedMoves)
    }

    public init(
        batch: String, job: Int, kind: PuzzleKind, puzzle: String, solver: String, source: String, status: JobStatus,
        moves: Int? = nil, expectedMoves: Int? = nil, error: String? = nil, worker: String = "w", seconds: Double = 0,
        examined: Int = 0, statesStored: Int = 0, memoryBytes: Int = 0, peakRSSBytes: Int = 0, storedAt: Double = 0,
        verdict: AnswerVerdict = .unknown, cpuSeconds: Double = 0
    ) {
        self.batch = batch
        self.job = job
        self.kind = kind
        self.puzzle = puzzle
        self.solver = solver
        self.source = source
        self.status = status
        self.moves = moves
        self.expectedMoves = expectedMoves
        self.error = error
        self.worker = worker
        self.seconds = seconds
        self.examined = examined
        self.statesStored = statesStored
        self.memoryBytes = memoryBytes
        self.peakRSSBytes = peakRSSBytes
        self.storedAt = storedAt
        self.verdict = verdict
        self.cpuSeconds = cpuSeconds
    }
}

extension ResultStore {
    /// Every row of `batch` (or of every batch) in batch and job order; returns how many rows
    /// could not be read.
    @discardableResult
    public func forEachReportRow(batch: String?, _ body: (ReportRow) throws -> Void) throws -> Int {
        try queue.read { db in
            let filter = batch == nil ? "" : "WHERE batch = ?"
            let arguments: StatementArguments = batch.map { [$0] } ?? []
            let cursor = try Row.fetchCursor(
                db, sql: """
                    SELECT batch, job, kind, puzzle, solver, source, status, moves, expected_moves, error, worker, seconds,
                           examined, states, memory_bytes, peak_rss_bytes, stored_at, verdict, cpu_seconds
                    FROM results \(filter) ORDER BY batch, job
                    """,
                arguments: arguments)
            var unreadable = 0
            while let row = try cursor.next() {
                // Times out of range (another program's rows) would make the charts' axes
                // infinite: such a row is counted, never drawn.
                guard var decoded = try? ReportRow(row), JobSummary.plausibleSeconds.contains(decoded.seconds),
                      ReportRow.plausibleStoredAt.contains(decoded.storedAt)
                else {
                    unreadable += 1
                    continue
                }
                // As the tables take it: a CPU time out of range (another program's) is clamped.
                decoded.cpuSeconds = JobSummary.plausibleSeconds.clamping(decoded.cpuSeconds)
                try body(decoded)
            }
            return unreadable
        }
    }
}

extension ReportRow {
    init(_ row: Row) throws {
        guard let kind = PuzzleKind(rawValue: try row.decode(atIndex: 2)), let status = JobStatus(rawValue: try row.decode(atIndex: 6)) else {
            throw UndecodableRow.Reason("a kind or status this build does not know")
        }
        self.init(
            batch: try row.decode(atIndex: 0), job: try row.decode(atIndex: 1), kind: kind, puzzle: try row.decode(atIndex: 3),
            solver: try row.decode(atIndex: 4), source: try row.decode(atIndex: 5), status: status, moves: try row.decode(atIndex: 7),
            expectedMoves: try row.decode(atIndex: 8), error: try row.decode(atIndex: 9), worker: try row.decode(atIndex: 10),
            seconds: try row.decode(atIndex: 11), examined: try row.decode(atIndex: 12), statesStored: try row.decode(atIndex: 13),
            memoryBytes: try row.decode(atIndex: 14), peakRSSBytes: try row.decode(atIndex: 15), storedAt: try row.decode(atIndex: 16),
            verdict: (try? row.decode(String.self, atIndex: 17)).flatMap(AnswerVerdict.init(rawValue:)) ?? .unknown,
            cpuSeconds: (try? row.decode(Double.self, atIndex: 18)) ?? 0)
    }
}
