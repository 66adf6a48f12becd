// `gridlock report --format html`: the tables as the text report has them, and the rows
// folded for the charts and the puzzle browser.

import Foundation
import GridlockCluster
import GridlockCharts
import GridlockHTMLReport
import GridlockCore

enum HTMLReportBuilder {
    static func page(_ store: ResultStore, path: String, batch: String?, basis: TimeBasis = .cpu, undecodable: inout [UndecodableRow]) throws -> String {
        var report = BatchReport()
        report.scores = try ReportPrinter.scores(store, batch: batch, basis: basis)
        let environment = try store.batches().filter { batch == nil || $0.batch == batch }
        // The batches started last (ISO 8601 times sort as text) go on the time axes.
        let recent = Set(environment.sorted { $0.started < $1.started }.suffix(ReportFold.recentBatchCount).map(\.batch))
        var fold = ReportFold(recentBatches: recent, basis: basis)
        // One pass: the tables and the charts fold the same rows.
        var skipped: [UndecodableRow] = []
        try store.forEachRow(batch: batch, reading: .htmlReport, undecodable: { skipped.append($0) }) { row in
            report.add(row)
            fold.add(row)
        }
        let unreadable = skipped.count
        undecodable += skipped
        var tables = [
            HTMLReport.Table(caption: "Per kind, solver and band", columns: BatchReport.columns, rows: report.rows),
            HTMLReport.Table(caption: "Throughput", columns: BatchReport.throughputColumns, rows: report.throughputRows),
        ]
        let problems = try store.problems(batch: batch, limit: StreamedReport.problemLimit)
        // The scores and ratios as the text report has them, from the one fold (SolverScores).
        if let scores = report.scoreRows {
            tables.append(HTMLReport.Table(
                caption: "Scores (PAR-2, the virtual best solver), \(basis.label) time", columns: BatchReport.scoreColumns(basis), rows: BatchReport.scoreText(scores)))
        }
        let ratios = report.ratioRows ?? []
        if !ratios.isEmpty {
            tables.append(HTMLReport.Table(
                caption: "Ratios, \(basis.label) time", columns: BatchReport.ratioColumns(basis), rows: BatchReport.ratioText(ratios)))
        }
        if !problems.isEmpty {
            tables.append(HTMLReport.Table(
                caption: "Jobs that did not run (the first \(StreamedReport.problemLimit))", columns: ["source", "solver", "status", "error"],
                rows: problems.map { [$0.source, $0.solver, $0.status.rawValue, $0.error ?? ""].map(\.printable) }))
        }
        let machines = try store.machines(batch: batch)
        if !machines.isEmpty {
            tables.append(HTMLReport.Table(
                caption: "Machines, as their workers described them (with how each measured its jobs)", columns: MachineTable.columns,
                rows: machines.map { MachineTable.row($0.batch, $0.machine) }))
        }
        let lines = environment.flatMap(RecipeText.batchLines)
        let name = URL(fileURLWithPath: path).lastPathComponent
        let notes = unreadable == 0 ? [] : ["\(unreadable) stored rows could not be read (a kind, status or time no run of Gridlock stores) and are not drawn."]
        var page = HTMLReport(
            heading: "Gridlock report: \(name)\(batch.map { ", batch \($0)" } ?? "")".printable, batches: lines, tables: tables, fold: fold,
            players: PuzzlePlayers.players(for: fold.listedRows), notes: notes)
        page.ratios = ratios.map(Self.chartRow)
        page.timeLabel = basis.label
        page.competition = try competition(store, batch: batch, basis: basis)
        return page.html()
    }

    /// A ratios table's row as the chart draws it: the estimate and its interval across
    /// puzzles (none with one puzzle: the estimate alone).
    static func chartRow(_ row: SolverScores.RatioRow) -> IntervalPlot.Row {
        let estimate = row.estimate
        let interval = estimate.acrossPuzzles ?? estimate.ratio...estimate.ratio
        return IntervalPlot.Row(
            label: "\(row.batch): \(row.kind.rawValue): \(row.solver) / \(row.baseline)", estimate: estimate.ratio,
            low: interval.lowerBound, high: interval.upperBound, pairs: estimate.pairs)
    }

    /// The first kind's cactus plot, and its first two solvers' scatter plot where it has two.
    static func competition(_ store: ResultStore, batch: String?, basis: TimeBasis) throws -> [(heading: String, svg: String)] {
        let plots = try CompetitionPlots.read(store, batch: batch, kind: nil, pair: nil, basis: basis)
        guard let kind = plots.kind, !plots.solvers.isEmpty else { return [] }
        var charts = [("Puzzles solved against \(basis.label) time (\(kind.rawValue))",
                       CactusPlot.svg(plots.series, limit: plots.limit, chart: "cactus", title: "Puzzles solved against \(basis.label) time, \(kind.rawValue)"))]
        if plots.solvers.count >= 2 {
            let names = (plots.solvers[0].printable, plots.solvers[1].printable)
            charts.append(("\(names.1) against \(names.0), \(basis.label) time per puzzle", PairScatterPlot.svg(
                plots.pairs, names: names, limit: plots.limit, chart: "scatter", title: "\(names.1) against \(names.0), \(basis.label) time per puzzle")))
        }
        return charts
    }
}
