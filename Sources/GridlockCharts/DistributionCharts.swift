// Charts of how long jobs took: a box per group on a log scale, and paired ratios with their
// intervals.

public enum BoxPlot {
    public struct Group: Sendable, Hashable {
        public var label: String
        public var detail: String
        /// A third line under the box (the kind, when there are several).
        public var context: String = ""
        public var series: Int
        public var count: Int
        public var minimum: Double, lowerQuartile: Double, median: Double, upperQuartile: Double, maximum: Double

        public init(label: String, detail: String, series: Int, count: Int, minimum: Double, lowerQuartile: Double, median: Double, upperQuartile: Double, maximum: Double) {
            self.label = label
            self.detail = detail
            self.series = series
            self.count = count
            self.minimum = minimum
            self.lowerQuartile = lowerQuartile
            self.median = median
            self.upperQuartile = upperQuartile
            self.maximum = maximum
        }
    }

    /// One box per group (quartiles, the median, whiskers from the fastest to the slowest), on
    /// a log scale of `unit`.
    public static func svg(_ groups: [Group], chart: String, title: String, unit: AxisUnit = .seconds, caption: String) -> String {
        var canvas = ChartCanvas(width: max(720, 90 + Double(groups.count) * 100), height: 380, bottom: 84)
        let scale = LogScale(spanning: groups.flatMap { [$0.minimum, $0.maximum] })
        canvas.verticalAxis(ticks: scale.ticks.map { (scale.position($0, from: canvas.bottom, to: canvas.top), unit.label($0)) }, caption: caption)
        let slot = (canvas.right - canvas.left) / Double(max(1, groups.count))
        for (index, group) in groups.enumerated() {
            let centre = canvas.left + slot * (Double(index) + 0.5)
            let half = min(18, slot * 0.3)
            let y = { scale.position($0, from: canvas.bottom, to: canvas.top) }
            let colour = ChartCanvas.palette[group.series % ChartCanvas.palette.count]
            let n = ChartCanvas.coordinate  // Short: it is in every attribute below.
            let body = "<line x1=\"\(n(centre))\" y1=\"\(n(y(group.minimum)))\" x2=\"\(n(centre))\" y2=\"\(n(y(group.maximum)))\" stroke=\"\(colour)\"/>"
                + "<rect x=\"\(n(centre - half))\" y=\"\(n(y(group.upperQuartile)))\" width=\"\(n(2 * half))\" height=\"\(n(max(1, y(group.lowerQuartile) - y(group.upperQuartile))))\" fill=\"\(colour)\" fill-opacity=\"0.25\" stroke=\"\(colour)\"/>"
                + "<line x1=\"\(n(centre - half))\" y1=\"\(n(y(group.median)))\" x2=\"\(n(centre + half))\" y2=\"\(n(y(group.median)))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
            canvas.mark(body, title: "\(group.label), \(group.detail): \(group.count) jobs, median \(unit.label(group.median)), from \(unit.label(group.minimum)) to \(unit.label(group.maximum))")
            canvas.label(group.label, x: centre, y: canvas.bottom + 16, size: 10)
            canvas.label(group.detail, x: centre, y: canvas.bottom + 30, size: 9)
            if !group.context.isEmpty { canvas.label(group.context, x: centre, y: canvas.bottom + 43, size: 9, colour: "#777777") }
        }
        canvas.line(canvas.left, canvas.bottom, canvas.right, canvas.bottom)
        return canvas.svg(chart: chart, title: title)
    }
}

public enum IntervalPlot {
    public struct Row: Sendable, Hashable {
        public var label: String
        public var estimate: Double
        public var low: Double
        public var high: Double
        public var pairs: Int

        public init(label: String, estimate: Double, low: Double, high: Double, pairs: Int) {
            self.label = label
            self.estimate = estimate
            self.low = low
            self.high = high
            self.pairs = pairs
        }
    }

    /// A ratio per row (a dot) with its interval (a bar), on a log scale with 1 marked.
    public static func svg(_ rows: [Row], chart: String, title: String, caption: String) -> String {
        var canvas = ChartCanvas(width: 720, height: 70 + Double(max(1, rows.count)) * 28, left: 230)
        let scale = LogScale(spanning: rows.flatMap { [$0.low, $0.high] } + [0.5, 2])
        let x = { scale.position($0, from: canvas.left, to: canvas.right) }
        canvas.horizontalAxis(ticks: scale.ticks.map { (x($0), String(format: "%g", $0) + "x") }, caption: caption)
        canvas.line(x(1), canvas.top, x(1), canvas.bottom, colour: "#999999")
        let n = ChartCanvas.coordinate  // Short: it is in every attribute below.
        for (index, row) in rows.enumerated() {
            let y = canvas.top + 14 + Double(index) * 28
            canvas.label(row.label, x: canvas.left - 8, y: y + 4, anchor: "end")
            let colour = row.low > 1 ? "#c62828" : row.high < 1 ? "#2e7d32" : "#555555"
            let body = "<line x1=\"\(n(x(row.low)))\" y1=\"\(n(y))\" x2=\"\(n(x(row.high)))\" y2=\"\(n(y))\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
                + "<circle cx=\"\(n(x(row.estimate)))\" cy=\"\(n(y))\" r=\"5\" fill=\"\(colour)\"/>"
            canvas.mark(body, title: "\(row.label): \(String(format: "%.3f", row.estimate))x (95% interval \(String(format: "%.3f", row.low)) to \(String(format: "%.3f", row.high))), \(row.pairs) puzzles")
        }
        return canvas.svg(chart: chart, title: title)
    }
}
