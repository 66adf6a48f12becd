// The data of the cactus and scatter plots (GridlockCharts' CompetitionCharts), read from a
// results database in job order: each solver's times of its right answers, and for two solvers
// each puzzle's pair of times (nil where one did not answer it right). Times are of the
// report's basis (`--time`), as the scores take them.

import GridlockCharts
import GridlockCluster
import GridlockWire

struct CompetitionPlots {
    var kind: PuzzleKind?
    /// Solvers of `kind`, in the order met.
    var solvers: [String] = []
    var times: [String: [Double]] = [:]
    var pairs: [PairScatterPlot.Pair] = []
    var limit: Double?

    /// The rows of `batch` (or all) of `kind` (or the first kind met); pairs for `pair` (or
    /// the kind's first two solvers).
    static func read(
        _ store: ResultStore, batch: String?, kind wantedKind: PuzzleKind?, pair wantedPair: (String, String)?, basis: TimeBasis
    ) throws -> CompetitionPlots {
        let scoring = try ReportPrinter.scores(store, batch: batch, basis: basis)
        // The limit line: the plotted batches' one limit, none where they differ or one has none.
        let plotted = try store.batches().filter { batch == nil || $0.batch == batch }.map(\.batch)
        let limits = Set(plotted.map { scoring.batchLimits[$0] })
        var plots = CompetitionPlots(kind: wantedKind, limit: limits.count == 1 ? limits.first ?? nil : nil)
        // One puzzle's answers at a time: rows come in job order, a record's jobs together.
        var puzzle: (batch: String, source: String)?
        // Each solver's runs of the puzzle being read (several with --repeats), nil where not right.
        var runs: [String: [Double?]] = [:]
        func flush() {
            guard puzzle != nil else { return }
            // A solver's runs as one: right when every run was, in their mean time.
            var answers: [String: Double?] = [:]
            for (solver, times) in runs {
                let right = times.compactMap { $0 }
                let answer: Double? = right.count == times.count ? right.reduce(0, +) / Double(right.count) : nil
                answers[solver] = .some(answer)
                if let answer { plots.times[solver, default: []].append(answer) }
            }
            runs = [:]
            // The kind's first two solvers: the second may not be met yet, and then had no answer.
            let names = wantedPair ?? (plots.solvers[0], plots.solvers.count >= 2 ? plots.solvers[1] : "")
            if answers[names.0] != nil || answers[names.1] != nil {
                plots.pairs.append(PairScatterPlot.Pair(x: answers[names.0] ?? nil, y: answers[names.1] ?? nil, label: puzzle!.source))
            }
        }
        try store.forEachRow(batch: batch, reading: .tables, undecodable: { _ in }) { job in
            guard job.status != .invalid else { return }
            if plots.kind == nil { plots.kind = job.kind }
            guard job.kind == plots.kind else { return }
            if puzzle?.batch != job.batch || puzzle?.source != job.source {
                flush()
                puzzle = (job.batch, job.source)
            }
            if !plots.solvers.contains(job.solver) { plots.solvers.append(job.solver) }
            let right = job.status.isAnswer && !job.isWrong
            let seconds = basis == .cpu ? job.cpuSeconds : job.seconds
            // Present with no time: it answered, but not right (drawn as unsolved).
            runs[job.solver, default: []].append(right ? seconds : nil)
        }
        flush()
        return plots
    }

    var series: [CactusPlot.Series] { solvers.map { CactusPlot.Series(name: $0, times: times[$0] ?? []) } }
}
