// What the HTML report draws, folded from the stored rows in one pass with bounded memory:
// a histogram of times per (kind, solver, band), paired times for the ratios, each batch's
// store times and worker spans, a sample of (states, memory) points, and the puzzles worth a
// look (slowest, hardest, failed, wrong).

import Foundation
import GridlockCharts
import GridlockCluster
import GridlockCore
import Histogram

public struct ReportFold {
    /// Listed puzzles per list, and points drawn per chart, at most.
    public static let listLength = 20
    public static let scatterPoints = 1_500
    /// Up to this many jobs a batch, its charts draw one mark a job; above, groups of them.
    public static let jobsDrawnOneByOne = 2_000
    /// Puzzles whose times are kept for pairing.
    public static let pairedPuzzles = 200_000
    /// Batches drawn on a time axis (the most recent).
    public static let recentBatchCount = 5
    /// Groups (kind, solver, band) and solvers per kind drawn, and worker lanes per batch: a
    /// database with a million solver or worker names (another program's) stays readable.
    public static let maximumGroups = 64
    public static let maximumSolversPerKind = 16
    public static let maximumLanes = 64

    struct GroupKey: Hashable {
        var kind: PuzzleKind
        var solver: String
        var band: String
    }

    /// A puzzle of a batch: its place and a hash of its text (the text itself, kept for
    /// 200,000 puzzles, could be gigabytes).
    struct PairKey: Hashable {
        var batch: String
        var kind: PuzzleKind
        var source: String
        var puzzle: Int
    }

    private var groupOrder: [GroupKey] = []
    private var groups: [GroupKey: Histogram<UInt64>] = [:]
    private var solverOrder: [PuzzleKind: [String]] = [:]
    private var paired: [PairKey: [String: (logSum: Double, count: Int)]] = [:]
    /// The keys in the order met: the bootstrap must see the pairs in the same order every run.
    private var pairOrder: [PairKey] = []
    private(set) var pairingCapped = false
    private(set) var groupsCapped = 0
    /// Per recent batch: (stored at, seconds, worker) of every job, in job order.
    private var runs: [String: [(storedAt: Double, seconds: Double, worker: String)]] = [:]
    private var batchOrder: [String] = []
    /// The batches drawn on a time axis; nil: the last met.
    private let recentBatches: Set<String>?
    private var sample: [ScatterPlot.Point] = []
    private var sampled = 0
    private var random = SplitMix64(seed: 20_261_125)
    private(set) var slowest: [ReportRow] = []
    private(set) var hardest: [ReportRow] = []
    private(set) var failed: [ReportRow] = []
    private(set) var wrong: [ReportRow] = []
    /// The first solved job of each kind, so that every kind has a board to step through.
    private(set) var examples: [ReportRow] = []
    public private(set) var rows = 0

    /// `recentBatches`: the batches to draw on a time axis (the most recently started).
    public init(recentBatches: Set<String>? = nil) {
        self.recentBatches = recentBatches
    }

    public mutating func add(_ row: ReportRow) {
        rows += 1
        if recentBatches?.contains(row.batch) ?? true {
            if runs[row.batch] == nil { batchOrder.append(row.batch) }
            runs[row.batch, default: []].append((row.storedAt, row.seconds, row.worker))
        }
        if !row.status.ranSolver {
            if failed.count < Self.listLength { failed.append(row) }
            return
        }
        if row.isWrong, wrong.count < Self.listLength { wrong.append(row) }
        if row.status == .solved, !examples.contains(where: { $0.kind == row.kind }) { examples.append(row) }
        let solvers = solverOrder[row.kind, default: []]
        if !solvers.contains(row.solver), solvers.count < Self.maximumSolversPerKind { solverOrder[row.kind, default: []].append(row.solver) }
        let key = GroupKey(kind: row.kind, solver: row.solver, band: BatchReport.band(moves: row.moves, expectedMoves: row.expectedMoves, status: row.status, kind: row.kind, examined: row.examined))
        if groups[key] == nil, groupOrder.count < Self.maximumGroups, solverOrder[row.kind]?.contains(row.solver) ?? false {
            groupOrder.append(key)
            groups[key] = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        }
        if groups[key] != nil {
            _ = groups[key]!.record(UInt64((row.seconds * 1e6).rounded()))
        } else {
            groupsCapped += 1
        }
        // Only right answers pair: a cut-off's time is its limit, not the solver's speed.
        if row.status == .solved, !row.isWrong {
            let pair = PairKey(batch: row.batch, kind: row.kind, source: row.source, puzzle: row.puzzle.hashValue)
            // Repeats (`--repeats`) of a puzzle: their geometric mean, as a sum of logs.
            let log = row.seconds > 0 ? Foundation.log(row.seconds) : -.infinity
            if paired[pair] != nil {
                paired[pair]![row.solver, default: (0, 0)].logSum += log
                paired[pair]![row.solver]!.count += 1
            } else if paired.count < Self.pairedPuzzles {
                paired[pair] = [row.solver: (log, 1)]
                pairOrder.append(pair)
            } else {
                pairingCapped = true
            }
        }
        if row.statesStored > 0, row.memoryBytes > 0 {
            // A reservoir: every such job equally likely to be drawn, whatever the batch's size.
            sampled += 1
            let point = ScatterPlot.Point(x: Double(row.statesStored), y: Double(row.memoryBytes), series: seriesIndex(row.solver))
            if sample.count < Self.scatterPoints {
                sample.append(point)
            } else {
                let slot = Int(random.next() % UInt64(sampled))
                if slot < Self.scatterPoints { sample[slot] = point }
            }
        }
        Self.keepTop(&slowest, row) { $0.seconds > $1.seconds }
        if row.status == .solved, (row.moves ?? 0) > 0 { Self.keepTop(&hardest, row) { ($0.moves ?? 0) > ($1.moves ?? 0) } }
    }

    /// Keeps the `listLength` first rows by `before`, in that order.
    private static func keepTop(_ list: inout [ReportRow], _ row: ReportRow, by before: (ReportRow, ReportRow) -> Bool) {
        if list.count == listLength, let last = list.last, !before(row, last) { return }
        let index = list.firstIndex { before(row, $0) } ?? list.count
        list.insert(row, at: index)
        if list.count > listLength { list.removeLast() }
    }

    /// Every solver met, in order, for the scatter plot's colours (the sixteenth and later
    /// share the last name, "other").
    private var seriesNames: [String] = []
    private mutating func seriesIndex(_ solver: String) -> Int {
        if let index = seriesNames.firstIndex(of: solver) { return index }
        guard seriesNames.count < Self.maximumSolversPerKind else {
            if seriesNames.last != "other" { seriesNames.append("other") }
            return seriesNames.count - 1
        }
        seriesNames.append(solver)
        return seriesNames.count - 1
    }

    // MARK: What the charts draw

    /// One box per group that ran a solver, in the order met.
    public var boxes: [BoxPlot.Group] {
        let kinds = groupOrder.map(\.kind)
        // By kind (as met), then solver (as met), then band (easy to hard), as the tables.
        let kindOrder = kinds.reduce(into: [PuzzleKind]()) { if !$0.contains($1) { $0.append($1) } }
        func rank(_ key: GroupKey) -> (Int, Int, Int) {
            (kindOrder.firstIndex(of: key.kind) ?? 0, solverOrder[key.kind]?.firstIndex(of: key.solver) ?? 0,
             BatchReport.bandOrder.firstIndex(of: key.band) ?? Int.max)
        }
        let ordered = groupOrder.sorted { rank($0) < rank($1) }
        return ordered.map { key in
            let times = groups[key]!
            let seconds = { (percentile: Double) in Double(times.valueAtPercentile(percentile)) * 1e-6 }
            let series = solverOrder[key.kind]?.firstIndex(of: key.solver) ?? 0
            var group = BoxPlot.Group(
                label: key.solver, detail: key.band, series: series, count: Int(times.totalCount),
                minimum: Double(times.min) * 1e-6, lowerQuartile: seconds(25), median: seconds(50), upperQuartile: seconds(75),
                maximum: Double(times.max) * 1e-6)
            if Set(kinds).count > 1 { group.context = key.kind.rawValue }
            return group
        }
    }

    /// Each solver against the first of its kind, on the puzzles both solved in one batch.
    public var ratios: [IntervalPlot.Row] {
        var rows: [IntervalPlot.Row] = []
        for kind in PuzzleKind.allCases {
            guard let solvers = solverOrder[kind], let baseline = solvers.first else { continue }
            for solver in solvers.dropFirst() {
                var base: [Double] = [], other: [Double] = []
                for key in pairOrder where key.kind == kind {
                    guard let times = paired[key], let first = times[baseline], let second = times[solver] else { continue }
                    base.append(Foundation.exp(first.logSum / Double(first.count)))
                    other.append(Foundation.exp(second.logSum / Double(second.count)))
                }
                guard let ratio = PairedRatio(baseline: base, other: other) else { continue }
                rows.append(IntervalPlot.Row(label: "\(kind.rawValue): \(solver) / \(baseline)", estimate: ratio.ratio, low: ratio.low, high: ratio.high, pairs: ratio.pairs))
            }
        }
        return rows
    }

    /// The most recent batches, with their points of jobs stored over time and their workers'
    /// spans (one a job up to `jobsDrawnOneByOne` jobs, else one per worker and sixtieth of the
    /// run), the first `maximumLanes` workers by name and the rest in one lane.
    public var timedBatches: [(batch: String, stored: [(seconds: Double, stored: Int)], lanes: [WorkerTimeline.Lane])] {
        batchOrder.suffix(Self.recentBatchCount).map { batch in
            let jobs = runs[batch]!
            let start = jobs.map { $0.storedAt - $0.seconds }.min() ?? 0
            let times = jobs.map(\.storedAt).sorted()
            var stored: [(Double, Int)] = []
            if times.count <= Self.jobsDrawnOneByOne {
                stored = times.enumerated().map { ($0.element - start, $0.offset + 1) }
            } else {
                let step = times.count / 200 + 1
                stored = stride(from: step - 1, to: times.count, by: step).map { (times[$0] - start, $0 + 1) }
                if stored.last?.1 != times.count { stored.append((times.last! - start, times.count)) }
            }
            let names = Set(jobs.map(\.worker)).sorted()
            let shown = Set(names.prefix(Self.maximumLanes))
            let othersLane = names.count > Self.maximumLanes ? "\(names.count - Self.maximumLanes) other workers" : nil
            let slices = 60.0
            let bucket = max(((times.last ?? start) - start) / slices, 1e-9)
            var spans: [String: [WorkerTimeline.Span]] = [:]
            var sliceIndex: [String: [Int: Int]] = [:]
            for job in jobs {
                let lane = shown.contains(job.worker) ? job.worker : othersLane!
                let span = WorkerTimeline.Span(start: max(0, job.storedAt - job.seconds - start), end: job.storedAt - start, jobs: 1)
                guard jobs.count > Self.jobsDrawnOneByOne else {
                    spans[lane, default: []].append(span)
                    continue
                }
                // Grouped: one span per lane and slice of the run it finished jobs in.
                let slice = Int(min(slices, max(0, span.end / bucket)))
                if let index = sliceIndex[lane]?[slice] {
                    spans[lane]![index].jobs += 1
                    spans[lane]![index].end = max(spans[lane]![index].end, span.end)
                } else {
                    spans[lane, default: []].append(WorkerTimeline.Span(start: Double(slice) * bucket, end: max(span.end, Double(slice) * bucket), jobs: 1))
                    sliceIndex[lane, default: [:]][slice] = spans[lane]!.count - 1
                }
            }
            let lanes = (names.prefix(Self.maximumLanes) + (othersLane.map { [$0] } ?? [])).map { WorkerTimeline.Lane(worker: $0, spans: spans[$0] ?? []) }
            return (batch, stored, lanes)
        }
    }

    /// What the page must say it left out.
    public var omissions: [String] {
        var notes: [String] = []
        if pairingCapped { notes.append("Ratios use the first \(Self.pairedPuzzles.formatted()) puzzles of the database.") }
        if groupsCapped > 0 { notes.append("\(groupsCapped) jobs of groups past the first \(Self.maximumGroups) (or of solvers past the first \(Self.maximumSolversPerKind) of a kind) are not drawn.") }
        return notes
    }

    public var scatter: (points: [ScatterPlot.Point], series: [String]) { (sample, seriesNames) }

    /// One list of the puzzle browser.
    public struct PuzzleList {
        public let id: String
        public let caption: String
        public let rows: [ReportRow]
        /// What the list says of each row after its source and solver.
        public let detail: (ReportRow) -> String
    }

    public var puzzleLists: [PuzzleList] {
        [
            PuzzleList(id: "kinds", caption: "One of each kind", rows: examples) { "\($0.kind.rawValue), \($0.moves.map { "\($0) moves" } ?? "solved")" },
            PuzzleList(id: "slowest", caption: "Slowest", rows: slowest) { AxisUnit.seconds.label($0.seconds) },
            PuzzleList(id: "hardest", caption: "Most moves", rows: hardest) { "\($0.moves ?? 0) moves" },
            PuzzleList(id: "failed", caption: "Failed or unreadable", rows: failed) { $0.status.rawValue },
            PuzzleList(id: "wrong", caption: "Wrong answers", rows: wrong) {
                "\($0.moves.map(String.init) ?? "none") moves, expected \($0.expectedMoves.map(String.init) ?? "?")"
            },
        ]
    }

    /// Every listed job once, in the order the lists show them: player `n` is `listedRows[n]`'s.
    public var listedRows: [ReportRow] {
        var seen: Set<String> = []
        return puzzleLists.flatMap(\.rows).filter { seen.insert("\($0.batch)\u{0}\($0.job)").inserted }
    }
}
