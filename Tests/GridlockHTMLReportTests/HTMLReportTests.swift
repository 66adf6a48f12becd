// The HTML report's parts without a browser: charts draw a mark per datum, the fold keeps the
// right puzzles, and text from the database cannot break out of the page.

import Foundation
import GridlockCharts
import GridlockCluster
import GridlockCore
import Testing

@testable import GridlockHTMLReport

@Suite("HTML report")
struct HTMLReportTests {
    static func marks(_ svg: String) -> Int { svg.components(separatedBy: "<g class=\"mark\">").count - 1 }

    static func row(_ job: Int, solver: String = "bfs", seconds: Double = 0.001, moves: Int? = 17, expected: Int? = 17,
                    status: JobStatus = .solved, source: String? = nil, batch: String = "b") -> StoredRow {
        StoredRow(batch: batch, job: job, kind: .rushhour, puzzle: "17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJGH 5911", solver: solver,
                  source: source ?? "f.txt:\(job)", status: status, moves: moves, expectedMoves: expected, worker: "w\(job % 2)",
                  seconds: seconds, cpuSeconds: seconds / 2, examined: 10, statesStored: 100 + job, memoryBytes: 1_000 + job,
                  storedAt: 1_000 + Double(job))
    }

    @Test("each chart draws one mark per datum and says so")
    func chartMarks() {
        let boxes = (0..<7).map { BoxPlot.Group(label: "s\($0)", detail: "d", series: $0, count: 1, minimum: 1e-4, lowerQuartile: 2e-4, median: 3e-4, upperQuartile: 4e-4, maximum: 1e-3) }
        let svg = BoxPlot.svg(boxes, chart: "times", title: "t", caption: "c")
        #expect(Self.marks(svg) == 7 && svg.contains("data-marks=\"7\""))
        let points = (0..<40).map { ScatterPlot.Point(x: Double($0 + 1), y: Double($0 * 100 + 1), series: $0 % 2) }
        #expect(Self.marks(ScatterPlot.svg(points, series: ["a", "b"], chart: "m", title: "t", x: .count, y: .bytes, xCaption: "x", yCaption: "y")) == 40)
        let series = (0..<25).map { (seconds: Double($0), stored: $0 + 1) }
        #expect(Self.marks(TimeSeriesChart.svg(series, chart: "s", title: "t")) == 25)
        let lanes = [WorkerTimeline.Lane(worker: "w", spans: (0..<9).map { WorkerTimeline.Span(start: Double($0), end: Double($0) + 0.5, jobs: 1) })]
        #expect(Self.marks(WorkerTimeline.svg(lanes, chart: "w", title: "t")) == 9)
        #expect(Self.marks(IntervalPlot.svg([IntervalPlot.Row(label: "a / b", estimate: 1.2, low: 1.1, high: 1.3, pairs: 5)], chart: "r", title: "t", caption: "c")) == 1)
    }

    @Test("the fold: slowest first (of its basis), a wrong answer listed, one mark a job of a small batch")
    func fold() {
        var fold = ReportFold()
        for job in 0..<30 {
            fold.add(Self.row(job, solver: job % 2 == 0 ? "bfs" : "bidirectional", seconds: 0.001 * Double(job + 1),
                              expected: job == 7 ? 16 : 17, source: "f.txt:\(job / 2)"))
        }
        fold.add(Self.row(30, moves: nil, expected: nil, status: .invalid))
        #expect(fold.slowest.first?.job == 29 && fold.slowest.count == ReportFold.listLength)
        #expect(zip(fold.slowest, fold.slowest.dropFirst()).allSatisfy { $0.cpuSeconds >= $1.cpuSeconds })
        #expect(fold.wrong.map(\.job) == [7] && fold.failed.map(\.job) == [30])
        // Wall time, where asked: the same order here, as the rows' CPU time is half their wall time.
        var wall = ReportFold(basis: .wall)
        for job in [3, 9, 5] { wall.add(Self.row(job, seconds: 0.001 * Double(job))) }
        #expect(wall.slowest.map(\.job) == [9, 5, 3])
        let batch = fold.timedBatches[0]
        #expect(batch.stored.count == 31 && batch.lanes.flatMap(\.spans).count == 31)
        #expect(fold.scatter.points.count == 30, "the invalid job stored nothing")
    }

    @Test("text from the database is escaped in the page, and cannot close the players' script elements")
    func hostileText() {
        var fold = ReportFold()
        let hostile = "</script><!--<script>alert(1)</script><b>"
        var row = Self.row(0, seconds: 0.5, source: hostile, batch: hostile)
        row.solver = hostile
        row.worker = hostile
        fold.add(row)
        let report = HTMLReport(
            heading: "<i>h</i>", batches: ["batch <x>"], tables: [HTMLReport.Table(caption: "c", columns: ["<a>"], rows: [["<td>"]])], fold: fold,
            players: PuzzlePlayers.players(for: fold.listedRows))
        let html = report.html()
        #expect(!html.contains("<script>alert") && !html.contains("<b>") && !html.contains("<x>") && !html.contains("<i>h"))
        #expect(html.contains("&lt;/script&gt;&lt;!--&lt;script&gt;alert(1)") && !html.contains("<!--"))
        // Exactly the page's own script elements: the player's JSON and the page script.
        let opened = html.components(separatedBy: "<script").count - 1, closed = html.components(separatedBy: "</script>").count - 1
        #expect(opened == closed && opened == 2, "\(opened) opened, \(closed) closed")
    }

    @Test("a big batch is drawn in groups, a crowd of workers in 64 lanes and one more, and the pairs in a fixed order")
    func bigBatch() {
        var fold = ReportFold()
        for job in 0..<5_000 {
            var row = Self.row(job, solver: job % 2 == 0 ? "bfs" : "bidirectional", seconds: 1e-3, source: "f.txt:\(job / 2)")
            row.worker = "w\(job % 100)"
            fold.add(row)
        }
        let batch = fold.timedBatches[0]
        #expect(batch.stored.count <= 202 && batch.stored.last?.stored == 5_000)
        #expect(batch.lanes.count == ReportFold.maximumLanes + 1 && batch.lanes.last?.worker == "36 other workers")
        #expect(batch.lanes.flatMap(\.spans).map(\.jobs).reduce(0, +) == 5_000, "every job is in a span")
        #expect(batch.lanes.allSatisfy { $0.spans.count <= 61 })
    }

    @Test("values no run stores never trap the charts: scales, ticks and numbers stay finite")
    func extremeValues() {
        for values in [[5e-324, 1e300], [0, 0], [Double.infinity, 1], [1e-9, 1e18]] {
            let scale = LogScale(spanning: values)
            #expect(scale.low > 0 && scale.high.isFinite && scale.ticks.count <= 12 && !scale.ticks(for: .bytes).isEmpty, "\(values)")
        }
        for (low, high) in [(0.0, 5e-324), (0, 0), (0, Double.infinity), (Double.nan, 1), (0, 1e300)] {
            let ticks = LinearScale(low: low, high: high).ticks
            #expect(ticks.count <= 12 && ticks.allSatisfy(\.isFinite), "\(low)...\(high)")
        }
        #expect(AxisUnit.seconds.label(1e20) == "1e+20 s" && AxisUnit.count.label(99.7) == "99.7")
        let ratios = IntervalPlot.svg([IntervalPlot.Row(label: "x", estimate: 1e18, low: 1e-9, high: 1e20, pairs: 1)], chart: "r", title: "t", caption: "c")
        #expect(ratios.contains("data-marks=\"1\""))
        #expect(TimeSeriesChart.svg([(seconds: 1e300, stored: 1)], chart: "s", title: "t").contains("data-marks=\"1\""))
    }
}
