// The report's statistics against values worked out by hand.

import Foundation
import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct GroupStatisticsTests {
    static func job(_ seconds: Double, status: JobStatus = .solved, examined: Int = 10, rss: Int = 1_000) -> StoredRow {
        let moves: Int? = status == .invalid ? nil : 3
        return StoredRow(kind: .rushhour, solver: "bfs", status: status, moves: moves, expectedMoves: moves, worker: "h:1", host: "h",
                         seconds: seconds, examined: examined, peakRSSBytes: rss)
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

    @Test("memory: the solver's own peak and the RSS above the worker's idle set in the table, the whole RSS in the exports only")
    func memoryColumns() throws {
        func job(_ solver: String, memory: Int, peak: Int, idle: Int) -> StoredRow {
            var job = Self.job(0.001, rss: peak)
            job.solver = solver
            job.memoryBytes = memory
            job.workerIdleRSSBytes = idle
            return job
        }
        var report = BatchReport()
        // The worker's own 33 MiB is in every peak; the solvers differ in what they add.
        for _ in 0..<3 {
            report.add(job("bfs", memory: 48 << 10, peak: 34 << 20, idle: 33 << 20))
            report.add(job("reference", memory: 7 << 19, peak: 38 << 20, idle: 33 << 20))
        }
        // A row stored before workers said what they held idle: left out of that mean only.
        report.add(job("reference", memory: 7 << 19, peak: 38 << 20, idle: 0))
        let all = report.statistics.filter { $0.band == "all" }
        let bfs = try #require(all.first { $0.solver == "bfs" })
        let reference = try #require(all.first { $0.solver == "reference" })
        #expect(bfs.memoryMeanBytes == Double(48 << 10) && bfs.memoryMaxBytes == 48 << 10)
        #expect(try #require(reference.memoryMeanBytes) / (try #require(bfs.memoryMeanBytes)) > 70)
        #expect(bfs.rssAboveIdleMeanBytes == Double(1 << 20) && reference.rssAboveIdleMeanBytes == Double(5 << 20))
        #expect(reference.peakRSSMeanBytes == Double(38 << 20))
        let header = BatchReport.columns
        let row = try #require(report.rows.first { $0[1] == "reference" && $0[2] == "all" })
        #expect(row[try #require(header.firstIndex(of: "memory mean"))] == (7 << 19).bytes)
        #expect(row[try #require(header.firstIndex(of: "RSS over idle"))] == (5 << 20).bytes)
        #expect(!header.contains { $0.contains("peak RSS") })
        let fields = GroupStatistics.fields.map(\.0)
        for name in ["memory_mean_bytes", "memory_max_bytes", "rss_above_idle_mean_bytes", "peak_rss_mean_bytes", "peak_rss_max_bytes"] {
            #expect(fields.contains(name), "\(name)")
        }
        // Another program's extreme sizes neither trap nor go below zero.
        var hostile = BatchReport()
        hostile.add(job("bfs", memory: .min, peak: .min, idle: .max))
        hostile.add(job("bfs", memory: .max, peak: .max, idle: 1))
        #expect(try #require(hostile.statistics.first { $0.band == "all" }).rssAboveIdleMeanBytes ?? -1 >= 0)
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
