// The tables `gridlock batch` folds while its rows are stored must be the tables read back from
// the database: same rows, same order, same tally, same first problems.

import Foundation
import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct StreamedReportTests {
    /// 120 results: bfs on even jobs, bidirectional on odd ones, every 7th invalid, every 11th
    /// wrong, times in 1/1024 s steps (exact sums in any order), over two workers.
    static func results(batch: String) -> [JobResult] {
        (0..<120).map { number in
            let job = Job(
                batch: batch, id: number, attempt: 1, kind: .rushhour, puzzle: "p\(number)", solver: number % 2 == 0 ? "bfs" : "bidirectional",
                maxStates: 9, timeoutSeconds: nil, source: "f:\(number + 1)")
            var result = JobResult(answering: job, worker: WorkerIdentity(host: "h\(number % 2)", pid: number % 3), status: .solved)
            if number % 7 == 0 {
                result.status = .invalid
                result.error = "unreadable"
                return result
            }
            result.moves = number % 40
            result.expectedMoves = number % 11 == 0 ? number % 40 + 1 : number % 40
            result.seconds = Double(number % 13 + 1) / 1024
            result.examined = number * 3
            result.peakRSSBytes = 4_096 * (number % 5 + 1)
            return result
        }
    }

    @Test("times and counts no honest worker sends (NaN, infinity, 1e300 s, Int.max states) fold without a trap")
    func hostileNumbersFold() {
        var report = BatchReport()
        for seconds in [Double.nan, .infinity, -.infinity, 1e300, -1, 0.5] {
            report.add(StoredRow(
                kind: .rushhour, solver: "bfs", status: .solved, moves: 3, expectedMoves: 3, worker: "h:1", host: "h", seconds: seconds,
                examined: .max, peakRSSBytes: .max))
        }
        let all = report.rows.first { $0[2] == "all" }
        #expect(all?[3] == "6")
        // The states examined saturate at Int.max rather than overflow.
        let column = { (name: String) in BatchReport.columns.firstIndex(of: name)! }
        #expect(all?[column("examined mean")] == BatchReport.saturatingInt(Double(Int.max) / 6).grouped)
        #expect(all?[column("examined max")] == Int.max.grouped)
    }

    @Test("ratios and rates past any Int (a tiny first mean, a tiny busy time) are printed, not trapped on")
    func hugeRatiosPrint() {
        var report = BatchReport()
        for (solver, seconds) in [("bfs", 1e-20), ("bidirectional", 1.0)] {
            report.add(StoredRow(
                kind: .rushhour, solver: solver, status: .solved, moves: 3, expectedMoves: 3, worker: "w:1", host: "h-\(solver)",
                seconds: seconds, examined: 1, peakRSSBytes: 1))
        }
        let row = report.rows.first { $0[1] == "bidirectional" && $0[2] == "all" }
        let ratio = row?[BatchReport.columns.firstIndex(of: "wall vs first")!]
        #expect(ratio == "1e+20x", "\(String(describing: ratio))")
        // No CPU time stored (0 for both): no CPU ratio, not an infinity.
        #expect(row?.last == "-" && BatchReport.columns.last == "CPU vs first")
        #expect(report.throughputRows.contains { $0[1] == "h-bfs" && $0[4] == "1e+20" })
        // A rate an Int holds is grouped like the job counts beside it.
        #expect(BatchReport.rate(717_556.4) == "717,556" && BatchReport.rate(1) == "1")
        #expect(1e20.formatted(decimals: 2) == "1e+20" && 12.345.formatted(decimals: 2) == "12.35" && (-0.5).formatted(decimals: 0) == "-1")
    }

    @Test("stored out of order, with duplicates: the folded tables equal the tables read back")
    func foldEqualsReadBack() throws {
        let store = try ResultStore(path: ResultColumnTests.temporaryPath())
        var streamed = StreamedReport(batch: "b")
        // The last job (a bidirectional one) is stored first: the job-ordered read meets bfs first.
        let results = Array(Self.results(batch: "b").reversed())
        for group in stride(from: 0, to: results.count, by: 16).map({ Array(results[$0..<min($0 + 16, results.count)]) }) {
            streamed.add(group, stored: try store.store(group))
        }
        // Re-issued jobs finished twice are not new rows.
        let again = Array(results.prefix(20))
        streamed.add(again, stored: try store.store(again))
        // Another batch's rows are not this batch's.
        let other = Array(Self.results(batch: "other").prefix(10))
        streamed.add(other, stored: try store.store(other))

        var readBack = BatchReport()
        try store.forEachRow(batch: "b", reading: .tables, undecodable: { Issue.record("row does not decode: \($0)") }) { readBack.add($0) }
        let folded = try #require(streamed.finished(jobs: 120, storedBefore: 0, changed: 0))
        #expect(folded.rows == readBack.rows)
        #expect(folded.throughputRows == readBack.throughputRows)
        #expect(streamed.tally == (try store.tally(batch: "b")))
        #expect(streamed.tally.wrong > 0)
        #expect(streamed.problemJobs == (try store.problems(batch: "b", limit: StreamedReport.problemLimit)).map(\.job))
        #expect(try store.problems(batch: "b", jobs: streamed.problemJobs).map(\.job) == streamed.problemJobs)
    }

    @Test("a fold that cannot hold every row of the batch gives no tables")
    func partialFoldGivesNothing() throws {
        let store = try ResultStore(path: ResultColumnTests.temporaryPath())
        var streamed = StreamedReport(batch: "b")
        let results = Self.results(batch: "b")
        streamed.add(results, stored: try store.store(results))
        #expect(streamed.finished(jobs: 120, storedBefore: 0, changed: 0) != nil)
        #expect(streamed.finished(jobs: 121, storedBefore: 0, changed: 0) == nil)
        #expect(streamed.finished(jobs: 120, storedBefore: 1, changed: 0) == nil)
        #expect(streamed.finished(jobs: 120, storedBefore: 0, changed: 1) == nil)
    }

    @Test("only the 50 smallest job numbers that did not run are kept, in order")
    func keepsTheFirstProblems() {
        var streamed = StreamedReport(batch: "b")
        let results = (0..<200).reversed().map { number in
            JobResult(batch: "b", job: number, attempt: 1, worker: WorkerIdentity(host: "h", pid: 1), status: number % 2 == 0 ? .failed : .solved)
        }
        streamed.add(results, stored: ResultStore.Stored(rows: [], inserted: results.count, written: Array(results.indices)))
        #expect(streamed.problemJobs == Array(stride(from: 0, to: 100, by: 2)))
    }
}
