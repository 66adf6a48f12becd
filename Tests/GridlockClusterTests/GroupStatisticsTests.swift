// The report's statistics against values worked out by hand.

import Foundation
import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct GroupStatisticsTests {
    static func job(_ seconds: Double, status: JobStatus = .solved, examined: Int = 10, rss: Int = 1_000) -> JobSummary {
        let moves: Int? = status == .invalid ? nil : 3
        return JobSummary(kind: .rushhour, solver: "bfs", status: status, moves: moves, expectedMoves: moves, seconds: seconds, examined: examined,
                   peakRSSBytes: rss, host: "h", worker: "h:1")
    }

    @Test("n, min, mean with its 95% interval, median, max and standard deviation; invalid jobs counted but left out of every mean")
    func statistics() throws {
        var report = BatchReport()
        for seconds in [0.001, 0.002, 0.003, 0.004] { report.add(Self.job(seconds, examined: 100, rss: 4_000)) }
        // An unreadable line: no time, no states, no memory. Counting it would pull the means down.
        report.add(Self.job(0, status: .invalid, examined: 0, rss: 0))
        let all = try #require(report.statistics.first { $0.band == "all" })
        #expect(all.jobs == 5 && all.invalid == 1 && all.timedJobs == 4)
        #expect(abs(try #require(all.meanSeconds) - 0.0025) < 1e-12)
        #expect(all.minSeconds == 0.001 && all.maxSeconds == 0.004)
        // Sample standard deviation of 1, 2, 3, 4 ms: sqrt(5/3) ms.
        let sd = try #require(all.stddevSeconds)
        #expect(abs(sd - (5.0 / 3).squareRoot() * 1e-3) < 1e-12)
        // t(0.975, 3) = 3.182: the half-width is 3.182 sd / 2.
        let interval = try #require(all.meanCI95)
        #expect(abs((interval.upperBound - interval.lowerBound) / 2 - 3.182 * sd / 2) < 1e-9)
        #expect(abs(try #require(all.medianSeconds) - 0.002) < 0.00001)
        #expect(try #require(all.p99Seconds) <= 0.004)
        #expect(all.examinedMean == 100 && all.peakRSSMeanBytes == 4_000)
        #expect(all.timeVsFirst == 1)
        // A group whose jobs never ran has no times at all: nil, shown as "-".
        let invalid = try #require(report.statistics.first { $0.band == "invalid" })
        #expect(invalid.meanSeconds == nil && invalid.examinedMean == nil && invalid.meanCI95 == nil)
        let text = try #require(report.rows.first { $0[2] == "invalid" })
        #expect(text[11] == "-" && text[18] == "-")
    }

    @Test("Student's t: the table, and the large-sample expansion close to its exact values")
    func tQuantiles() {
        #expect(ConfidenceInterval.tQuantile975(degreesOfFreedom: 1) == 12.706)
        #expect(ConfidenceInterval.tQuantile975(degreesOfFreedom: 30) == 2.042)
        // Exact: t(0.975, 40) = 2.0211, t(0.975, 120) = 1.9799, t(0.975, 1000) = 1.9623.
        for (df, exact) in [(40, 2.0211), (120, 1.9799), (1_000, 1.9623)] {
            #expect(abs(ConfidenceInterval.tQuantile975(degreesOfFreedom: df) - exact) < 0.002, "df \(df)")
        }
        #expect(ConfidenceInterval.ofMean(count: 1, mean: 1, standardDeviation: 0) == nil)
    }
}
