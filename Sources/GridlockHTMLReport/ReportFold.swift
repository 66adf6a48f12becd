// What the HTML report draws, folded from the stored rows in one pass with bounded memory:
// a histogram of times per (kind, solver, band), of the report's basis (`--time`), each
// batch's store times and worker spans (wall: a timeline), a sample of (states, memory) points, and the puzzles worth a
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

    private var groupOrder: [GroupKey] = []
    private var groups: [GroupKey: Histogram<UInt64>] = [:]
    private var solverOrder: [PuzzleKind: [String]] = [:]
    private(set) var groupsCapped = 0
    /// Per recent batch: (stored at, seconds, worker) of every job, in job order.
    private var runs: [String: [(storedAt: Double, seconds: Double, worker: String)]] = [:]
    private var batchOrder: [String] = []
    /// The batches drawn on a time axis; nil: the last met.
    private let recentBatches: Set<String>?
    private var sample: [ScatterPlot.Point] = []
    private var sampled = 0
    private var random = SplitMix64(seed: 20_261_125)
    private(set) var slowest: [StoredRow] = []
    private(set) var hardest: [StoredRow] = []
    private(set) var failed: [StoredRow] = []
    private(set) var wrong: [StoredRow] = []
    /// The first solved job of each kind, so that every kind has a board to step through.
    private(set) var examples: [StoredRow] = []
    public private(set) var rows = 0

    /// The time the boxes and the slowest list are of.
    public let basis: TimeBasis

    /// `recentBatches`: the batches to draw on a time axis (the most recently started).
    public init(recentBatches: Set<String>? = nil, basis: TimeBasis = .cpu) {
        self.recentBatches = recentBatches
        self.basis = basis
    }

    /// A row's time, of the basis.
    func seconds(_ row: StoredRow) -> Double { basis == .cpu ? row.cpuSeconds : row.seconds }

    public mutating func add(_ row: StoredRow) {
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
            _ = groups[key]!.record(UInt64((seconds(row) * 1e6).rounded()))
        } else {
            groupsCapped += 1
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
        let basis = basis
        Self.keepTop(&slowest, row) { basis == .cpu ? $0.cpuSeconds > $1.cpuSeconds : $0.seconds > $1.seconds }
        if row.status == .solved, (row.moves ?? 0) > 0 { Self.keepTop(&hardest, row) { ($0.moves ?? 0) > ($1.moves ?? 0) } }
    }

    /// Keeps the `listLength` first rows by `before`, in that order.
    private static func keepTop(_ list: inout [StoredRow], _ row: StoredRow, by before: (StoredRow, StoredRow) -> Bool) {
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
        if groupsCapped > 0 { notes.append("\(groupsCapped) jobs of groups past the first \(Self.maximumGroups) (or of solvers past the first \(Self.maximumSolversPerKind) of a kind) are not drawn.") }
        return notes
    }

    public var scatter: (points: [ScatterPlot.Point], series: [String]) { (sample, seriesNames) }

    /// One list of the puzzle browser.
    public struct PuzzleList {
        public let id: String
        public let caption: String
        public let rows: [StoredRow]
        /// What the list says of each row after its source and solver.
        public let detail: (StoredRow) -> String
    }

    public var puzzleLists: [PuzzleList] {
        [
            PuzzleList(id: "kinds", caption: "One of each kind", rows: examples) { "\($0.kind.rawValue), \($0.moves.map { "\($0) moves" } ?? "solved")" },
            PuzzleList(id: "slowest", caption: "Slowest (\(basis.label) time)", rows: slowest) { [self] in AxisUnit.seconds.label(seconds($0)) },
            PuzzleList(id: "hardest", caption: "Most moves", rows: hardest) { "\($0.moves ?? 0) moves" },
            PuzzleList(id: "failed", caption: "Failed or unreadable", rows: failed) { $0.status.rawValue },
            PuzzleList(id: "wrong", caption: "Wrong answers", rows: wrong) {
                "\($0.moves.map(String.init) ?? "none") moves, expected \($0.expectedMoves.map(String.init) ?? "?")"
            },
        ]
    }

    /// Every listed job once, in the order the lists show them: player `n` is `listedRows[n]`'s.
    public var listedRows: [StoredRow] {
        var seen: Set<String> = []
        return puzzleLists.flatMap(\.rows).filter { seen.insert("\($0.batch)\u{0}\($0.job)").inserted }
    }
}
