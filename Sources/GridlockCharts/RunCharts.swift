// Charts of a run: jobs stored over time, each worker's jobs on a timeline (stragglers show as
// lanes that end late), and memory against states stored.

public enum TimeSeriesChart {
    /// Points of (seconds since the start, jobs stored by then), one mark each, joined.
    public static func svg(_ points: [(seconds: Double, stored: Int)], chart: String, title: String) -> String {
        var canvas = ChartCanvas()
        let xScale = LinearScale(low: 0, high: points.map(\.seconds).max() ?? 1)
        let yScale = LinearScale(low: 0, high: Double(points.map(\.stored).max() ?? 1))
        let x = { xScale.position($0, from: canvas.left, to: canvas.right) }
        let y = { yScale.position($0, from: canvas.bottom, to: canvas.top) }
        canvas.verticalAxis(ticks: yScale.ticks.map { (y($0), AxisUnit.count.label($0)) }, caption: "jobs stored")
        canvas.horizontalAxis(ticks: xScale.ticks.map { (x($0), AxisUnit.seconds.label($0)) }, caption: "time since the batch's first job started")
        let path = points.map { "\(ChartCanvas.coordinate(x($0.seconds))),\(ChartCanvas.coordinate(y(Double($0.stored))))" }.joined(separator: " ")
        canvas.elements.append("<polyline points=\"\(path)\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.5\"/>")
        for point in points {
            canvas.mark("<circle cx=\"\(ChartCanvas.coordinate(x(point.seconds)))\" cy=\"\(ChartCanvas.coordinate(y(Double(point.stored))))\" r=\"2\" fill=\"#1565c0\"/>",
                        title: "\(point.stored) jobs stored after \(AxisUnit.seconds.label(point.seconds))")
        }
        return canvas.svg(chart: chart, title: title)
    }
}

public enum WorkerTimeline {
    public struct Lane: Sendable, Hashable {
        public var worker: String
        /// Spans of time busy, in seconds since the start: one per job, or per group of jobs.
        public var spans: [Span]

        public init(worker: String, spans: [Span]) {
            self.worker = worker
            self.spans = spans
        }
    }

    public struct Span: Sendable, Hashable {
        public var start: Double
        public var end: Double
        public var jobs: Int

        public init(start: Double, end: Double, jobs: Int) {
            self.start = start
            self.end = end
            self.jobs = jobs
        }
    }

    /// A lane per worker, a bar per span, and a tick where each lane's last job ended.
    public static func svg(_ lanes: [Lane], chart: String, title: String) -> String {
        var canvas = ChartCanvas(width: 720, height: 70 + Double(max(1, lanes.count)) * 20, left: 170)
        let scale = LinearScale(low: 0, high: lanes.flatMap { $0.spans.map(\.end) }.max() ?? 1)
        let x = { scale.position($0, from: canvas.left, to: canvas.right) }
        canvas.horizontalAxis(ticks: scale.ticks.map { (x($0), AxisUnit.seconds.label($0)) }, caption: "time since the batch's first job started")
        let n = ChartCanvas.coordinate  // Short: it is in every attribute below.
        for (index, lane) in lanes.enumerated() {
            let y = canvas.top + Double(index) * 20
            canvas.label(lane.worker, x: canvas.left - 8, y: y + 13, anchor: "end", size: 10)
            let colour = ChartCanvas.palette[index % ChartCanvas.palette.count]
            for span in lane.spans {
                let width = max(1, x(span.end) - x(span.start))
                canvas.mark("<rect x=\"\(n(x(span.start)))\" y=\"\(n(y + 3))\" width=\"\(n(width))\" height=\"14\" fill=\"\(colour)\" fill-opacity=\"0.7\"/>",
                            title: "\(lane.worker): \(span.jobs) job\(span.jobs == 1 ? "" : "s") from \(AxisUnit.seconds.label(span.start)) to \(AxisUnit.seconds.label(span.end))")
            }
            if let last = lane.spans.map(\.end).max() {
                canvas.line(x(last), y + 1, x(last), y + 19, colour: "#000000", width: 2)
            }
        }
        return canvas.svg(chart: chart, title: title)
    }
}

public enum ScatterPlot {
    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var series: Int

        public init(x: Double, y: Double, series: Int) {
            self.x = x
            self.y = y
            self.series = series
        }
    }

    /// A dot per point on log scales, coloured by series, with a legend.
    public static func svg(
        _ points: [Point], series: [String], chart: String, title: String, x xUnit: AxisUnit, y yUnit: AxisUnit, xCaption: String, yCaption: String
    ) -> String {
        var canvas = ChartCanvas(height: 340)
        let xScale = LogScale(spanning: points.map(\.x))
        let yScale = LogScale(spanning: points.map(\.y))
        let x = { xScale.position($0, from: canvas.left, to: canvas.right) }
        let y = { yScale.position($0, from: canvas.bottom, to: canvas.top) }
        canvas.verticalAxis(ticks: yScale.ticks(for: yUnit).map { (y($0), yUnit.label($0)) }, caption: yCaption)
        canvas.horizontalAxis(ticks: xScale.ticks(for: xUnit).map { (x($0), xUnit.label($0)) }, caption: xCaption)
        for point in points {
            let colour = ChartCanvas.palette[point.series % ChartCanvas.palette.count]
            canvas.mark("<circle cx=\"\(ChartCanvas.coordinate(x(point.x)))\" cy=\"\(ChartCanvas.coordinate(y(point.y)))\" r=\"2.5\" fill=\"\(colour)\" fill-opacity=\"0.6\"/>",
                        title: "\(series.indices.contains(point.series) ? series[point.series] : ""): \(xUnit.label(point.x)), \(yUnit.label(point.y))")
        }
        for (index, name) in series.enumerated() {
            let colour = ChartCanvas.palette[index % ChartCanvas.palette.count]
            canvas.elements.append("<circle cx=\"\(ChartCanvas.coordinate(canvas.left + 12))\" cy=\"\(ChartCanvas.coordinate(canvas.top + 8 + Double(index) * 14))\" r=\"4\" fill=\"\(colour)\"/>")
            canvas.label(name, x: canvas.left + 20, y: canvas.top + 12 + Double(index) * 14, anchor: "start", size: 10)
        }
        return canvas.svg(chart: chart, title: title)
    }
}
