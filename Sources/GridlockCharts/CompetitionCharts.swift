// The solver competitions' two plots. A cactus plot: for each solver, its solve times sorted, so
// a line that reaches further right solved more, and one lower solved them faster. A scatter
// plot of two solvers' times on the same puzzles, log-log, with the diagonal (as fast), the 2x
// lines, and the limit: a puzzle one of them did not solve sits beyond the limit line.

import Foundation

public enum CactusPlot {
    public struct Series: Sendable, Hashable {
        public var name: String
        /// The times of the puzzles it solved, in any order.
        public var times: [Double]

        public init(name: String, times: [Double]) {
            self.name = name
            self.times = times
        }
    }

    /// The most points drawn on a line: past it, evenly spaced ranks (the first and last kept).
    public static let maximumPoints = 1_000

    /// A line per solver (one mark each): puzzles solved against time, time on a log scale.
    public static func svg(_ series: [Series], limit: Double?, chart: String, title: String) -> String {
        var canvas = ChartCanvas(height: 360)
        let sorted = series.map { ($0.name, $0.times.filter { $0.isFinite && $0 >= 0 }.sorted()) }
        let most = sorted.map(\.1.count).max() ?? 0
        let xScale = LinearScale(low: 0, high: Double(max(1, most)))
        let yScale = LogScale(spanning: sorted.flatMap(\.1).map { max($0, 1e-6) } + (limit.map { [$0] } ?? []))
        let x = { xScale.position($0, from: canvas.left, to: canvas.right) }
        let y = { yScale.position(max($0, 1e-6), from: canvas.bottom, to: canvas.top) }
        canvas.verticalAxis(ticks: yScale.ticks(for: .seconds).map { (y($0), AxisUnit.seconds.label($0)) }, caption: "time to solve (log)")
        canvas.horizontalAxis(ticks: xScale.ticks.map { (x($0), AxisUnit.count.label($0)) }, caption: "puzzles solved")
        if let limit { canvas.dashed(x1: canvas.left, y1: y(limit), x2: canvas.right, y2: y(limit), label: "limit \(AxisUnit.seconds.label(limit))") }
        for (index, (name, times)) in sorted.enumerated() {
            let colour = ChartCanvas.palette[index % ChartCanvas.palette.count]
            let ranks = Self.ranks(count: times.count)
            let path = ranks.map { "\(ChartCanvas.coordinate(x(Double($0 + 1)))),\(ChartCanvas.coordinate(y(times[$0])))" }.joined(separator: " ")
            let slowest = times.last.map { ", the slowest in \(AxisUnit.seconds.label($0))" } ?? ""
            canvas.mark("<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.8\"/>", title: "\(name): \(times.count) solved\(slowest)")
            canvas.legend(name, index: index)
        }
        return canvas.svg(chart: chart, title: title)
    }

    /// Which ranks a line of `count` points draws: all, or `maximumPoints` evenly spaced.
    static func ranks(count: Int) -> [Int] {
        guard count > maximumPoints else { return Array(0..<count) }
        return (0..<maximumPoints).map { $0 * (count - 1) / (maximumPoints - 1) }
    }
}

public enum PairScatterPlot {
    /// One puzzle: each solver's time, nil where it did not solve it.
    public struct Pair: Sendable, Hashable {
        public var x: Double?
        public var y: Double?
        public var label: String

        public init(x: Double?, y: Double?, label: String) {
            self.x = x
            self.y = y
            self.label = label
        }
    }

    /// The most puzzles drawn: past it, every k-th, said in the title.
    public static let maximumPoints = 20_000

    /// A dot per puzzle (one mark each), log-log; an unsolved time is drawn at twice the limit
    /// (past the dashed limit lines), or without a limit at twice the slowest time seen.
    public static func svg(_ pairs: [Pair], names: (x: String, y: String), limit: Double?, chart: String, title: String) -> String {
        var canvas = ChartCanvas(width: 520, height: 520, left: 70, top: 24, right: 24, bottom: 48)
        let times = pairs.flatMap { [$0.x, $0.y] }.compactMap { $0 }.filter { $0.isFinite && $0 > 0 }
        let unsolvedAt = 2 * (limit ?? times.max() ?? 1)
        // The scale reaches the unsolved only where a puzzle was, and the limit where there is one.
        let unsolved = pairs.contains { $0.x == nil || $0.y == nil }
        let scale = LogScale(spanning: times + (unsolved ? [unsolvedAt] : []) + (limit.map { [$0] } ?? []))
        let x = { scale.position(max($0, scale.low), from: canvas.left, to: canvas.right) }
        let y = { scale.position(max($0, scale.low), from: canvas.bottom, to: canvas.top) }
        let ticks = scale.ticks(for: .seconds)
        canvas.verticalAxis(ticks: ticks.map { (y($0), AxisUnit.seconds.label($0)) }, caption: "\(names.y) (log)")
        canvas.horizontalAxis(ticks: ticks.map { (x($0), AxisUnit.seconds.label($0)) }, caption: "\(names.x) (log)")
        // The diagonal (as fast) and the 2x lines, clipped to the square.
        for (factor, text) in [(1.0, "as fast"), (2.0, "2x"), (0.5, "2x")] {
            let start = max(scale.low, scale.low / factor), end = min(scale.high, scale.high / factor)
            guard start < end else { continue }
            canvas.line(x(start), y(start * factor), x(end), y(end * factor), colour: factor == 1 ? "#555555" : "#aaaaaa", width: factor == 1 ? 1.2 : 0.8)
            // Each label a fifth of the way from its line's end, on its own side of the diagonal.
            let at = exp(log(start) + (log(end) - log(start)) * (factor == 1 ? 0.8 : factor > 1 ? 0.7 : 0.9))
            canvas.label(text, x: x(at) + (factor > 1 ? -6 : 6), y: y(at * factor) + (factor > 1 ? -4 : 12), anchor: factor > 1 ? "end" : "start", size: 9, colour: "#777777")
        }
        if let limit {
            canvas.dashed(x1: x(limit), y1: canvas.bottom, x2: x(limit), y2: canvas.top, label: nil)
            canvas.dashed(x1: canvas.left, y1: y(limit), x2: canvas.right, y2: y(limit), label: "limit \(AxisUnit.seconds.label(limit))", atStart: true)
        }
        let step = max(1, (pairs.count + maximumPoints - 1) / maximumPoints)
        for pair in stride(from: 0, to: pairs.count, by: step).map({ pairs[$0] }) {
            let (px, py) = (pair.x ?? unsolvedAt, pair.y ?? unsolvedAt)
            let colour = pair.x == nil || pair.y == nil ? "#c62828" : "#1565c0"
            canvas.mark("<circle cx=\"\(ChartCanvas.coordinate(x(px)))\" cy=\"\(ChartCanvas.coordinate(y(py)))\" r=\"2.5\" fill=\"\(colour)\" fill-opacity=\"0.6\"/>",
                        title: "\(pair.label): \(names.x) \(pair.x.map { AxisUnit.seconds.label($0) } ?? "unsolved"), \(names.y) \(pair.y.map { AxisUnit.seconds.label($0) } ?? "unsolved")")
        }
        let sampled = step > 1 ? " (every \(step)th of \(pairs.count) puzzles)" : ""
        return canvas.svg(chart: chart, title: title + sampled)
    }
}

extension ChartCanvas {
    /// A dashed red line, its label above its end (or its start: clear of a scatter's diagonal).
    mutating func dashed(x1: Double, y1: Double, x2: Double, y2: Double, label text: String?, atStart: Bool = false) {
        let n = Self.coordinate
        elements.append("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"#c62828\" stroke-width=\"1\" stroke-dasharray=\"5 4\"/>")
        guard let text else { return }
        if atStart {
            label(text, x: x1 + 4, y: y1 - 4, anchor: "start", size: 9, colour: "#c62828")
        } else {
            label(text, x: x2 - 4, y: y2 - 4, anchor: "end", size: 9, colour: "#c62828")
        }
    }

    mutating func legend(_ name: String, index: Int) {
        let colour = Self.palette[index % Self.palette.count]
        let y = top + 8 + Double(index) * 14
        elements.append("<line x1=\"\(Self.coordinate(left + 8))\" y1=\"\(Self.coordinate(y))\" x2=\"\(Self.coordinate(left + 22))\" y2=\"\(Self.coordinate(y))\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>")
        label(name, x: left + 28, y: y + 4, anchor: "start", size: 10)
    }
}
