// The frame every chart shares: an SVG of a fixed size with a plot area, axes with ticks and
// labels, and marks. Each chart says how many marks it drew (`data-marks`) and tags each with
// class "mark", so a test can count what a browser shows against the data.

import Foundation
import GridlockDrawing

/// A logarithmic axis over positive values: equal steps per factor of ten.
public struct LogScale: Sendable {
    public let low: Double
    public let high: Double

    /// Spans `values` (their positive, finite ones), widened to whole decades; 1...10 if none.
    public init(spanning values: some Sequence<Double>) {
        var low = Double.infinity, high = 0.0
        for value in values where value > 0 && value.isFinite {
            low = min(low, value)
            high = max(high, value)
        }
        if high == 0 { (low, high) = (1, 10) }
        // Within 1e-300 to 1e300: a subnormal low would round to 0 and the ticks never end.
        self.low = pow(10, floor(log10(min(max(low, 1e-300), 1e299))))
        self.high = min(max(pow(10, ceil(log10(min(high, 1e300)))), self.low * 10), 1e301)
    }

    /// Where `value` falls between `start` (at `low`) and `end` (at `high`); values at or
    /// below zero sit at `start`.
    public func position(_ value: Double, from start: Double, to end: Double) -> Double {
        guard value > 0 else { return start }
        let share = (log10(value) - log10(low)) / (log10(high) - log10(low))
        return start + (end - start) * min(1, max(0, share))
    }

    /// Ticks for `unit`: sizes at powers of two, 8x apart (1 KiB, 8 KiB, 64 KiB...: a power
    /// of ten in bytes prints as 977 KiB), anything else at powers of ten.
    public func ticks(for unit: AxisUnit) -> [Double] {
        guard case .bytes = unit else { return ticks }
        var tick = pow(2, (log2(low) / 3).rounded(.down) * 3)
        var ticks: [Double] = []
        while tick <= high * 1.0001, ticks.count < 24 {
            if tick >= low * 0.9999 { ticks.append(tick) }
            tick *= 8
        }
        return ticks
    }

    /// The powers of ten from `low` to `high`.
    public var ticks: [Double] {
        var ticks: [Double] = []
        var tick = low
        while tick <= high * 1.0001, ticks.count < 12 {
            ticks.append(tick)
            tick *= 10
        }
        // Over a dozen decades, every other one is enough to read it.
        return ticks.count < 12 ? ticks : stride(from: 0, to: ticks.count, by: 2).map { ticks[$0] }
    }
}

/// A linear axis from zero.
public struct LinearScale: Sendable {
    public let low: Double
    public let high: Double

    public init(low: Double, high: Double) {
        // A range that is empty, not finite or too fine to step through is drawn as 1 wide.
        let usable = low.isFinite && high.isFinite && high > low && (high - low) / 5 >= Double.leastNormalMagnitude
        self.low = low.isFinite ? low : 0
        self.high = usable ? high : self.low + 1
    }

    public func position(_ value: Double, from start: Double, to end: Double) -> Double {
        start + (end - start) * min(1, max(0, (value - low) / (high - low)))
    }

    /// About five round ticks.
    public var ticks: [Double] {
        let rough = (high - low) / 5
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? rough
        guard step > 0, step.isFinite else { return [low, high] }
        return Array(stride(from: (low / step).rounded(.up) * step, through: high, by: step).prefix(12))
    }
}

/// How axis labels print.
public enum AxisUnit: Sendable {
    case seconds, bytes, count

    public func label(_ value: Double) -> String {
        if value == 0 { return "0" }
        switch self {
        case .seconds:
            let units: [(Double, String)] = [(1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")]
            let (scale, name) = units.first { value >= $0.0 * 0.999 } ?? units.last!
            return "\(Self.short(value / scale)) \(name)"
        case .bytes:
            let units: [(Double, String)] = [(1_073_741_824, "GiB"), (1_048_576, "MiB"), (1_024, "KiB"), (1, "B")]
            let (scale, name) = units.first { value >= $0.0 * 0.999 } ?? units.last!
            return "\(Self.short(value / scale)) \(name)"
        case .count:
            let units: [(Double, String)] = [(1e9, "G"), (1e6, "M"), (1e3, "k"), (1, "")]
            let (scale, name) = units.first { value >= $0.0 * 0.999 } ?? units.last!
            return "\(Self.short(value / scale))\(name)"
        }
    }

    private static func short(_ value: Double) -> String {
        if value < 1e15, value >= 100 || value == value.rounded(), let whole = Int(exactly: value.rounded()) { return String(whole) }
        return String(format: "%.3g", value)
    }
}

/// An SVG under construction: the plot area's bounds and the elements so far.
struct ChartCanvas {
    let width: Double
    let height: Double
    /// The plot area, inside the margins for labels.
    let left: Double, top: Double, right: Double, bottom: Double
    var elements: [String] = []
    var marks = 0

    init(width: Double = 720, height: Double = 320, left: Double = 70, top: Double = 24, right: Double = 20, bottom: Double = 44) {
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.right = width - right
        self.bottom = height - bottom
    }

    static let ink = "#333333"
    static let grid = "#e4e0d8"
    /// Series colours, in order.
    static let palette = ["#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#ad1457", "#5d4037"]

    static func coordinate(_ value: Double) -> String { SVGWriter.number(value) }
    static func text(_ value: String) -> String { SVGWriter.escaped(value) }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: String = ink, width: Double = 1) {
        elements.append("<line x1=\"\(Self.coordinate(x1))\" y1=\"\(Self.coordinate(y1))\" x2=\"\(Self.coordinate(x2))\" y2=\"\(Self.coordinate(y2))\" stroke=\"\(colour)\" stroke-width=\"\(Self.coordinate(width))\"/>")
    }

    mutating func label(_ value: String, x: Double, y: Double, anchor: String = "middle", size: Double = 11, colour: String = ink) {
        elements.append("<text x=\"\(Self.coordinate(x))\" y=\"\(Self.coordinate(y))\" text-anchor=\"\(anchor)\" font-size=\"\(Self.coordinate(size))\" fill=\"\(colour)\">\(Self.text(value))</text>")
    }

    /// One mark: counted, tagged, and titled for a tooltip.
    mutating func mark(_ body: String, title: String) {
        marks += 1
        elements.append("<g class=\"mark\"><title>\(Self.text(title))</title>\(body)</g>")
    }

    /// A vertical axis on the left with grid lines at `ticks`.
    mutating func verticalAxis(ticks: [(Double, String)], caption: String) {
        for (y, text) in ticks {
            line(left, y, right, y, colour: Self.grid)
            label(text, x: left - 6, y: y + 4, anchor: "end")
        }
        line(left, top, left, bottom)
        elements.append("<text x=\"14\" y=\"\(Self.coordinate((top + bottom) / 2))\" text-anchor=\"middle\" font-size=\"11\" fill=\"\(Self.ink)\" transform=\"rotate(-90 14 \(Self.coordinate((top + bottom) / 2)))\">\(Self.text(caption))</text>")
    }

    /// A horizontal axis at the bottom with ticks.
    mutating func horizontalAxis(ticks: [(Double, String)], caption: String) {
        for (x, text) in ticks {
            line(x, bottom, x, bottom + 4)
            label(text, x: x, y: bottom + 16)
        }
        line(left, bottom, right, bottom)
        label(caption, x: (left + right) / 2, y: height - 6)
    }

    /// The finished SVG, named `chart` for the page and its tests.
    func svg(chart: String, title: String) -> String {
        var lines = ["<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"\(Self.text(chart))\" data-marks=\"\(marks)\" width=\"\(Self.coordinate(width))\" height=\"\(Self.coordinate(height))\" viewBox=\"0 0 \(Self.coordinate(width)) \(Self.coordinate(height))\" role=\"img\">"]
        lines.append("<title>\(Self.text(title))</title>")
        lines.append("<rect width=\"\(Self.coordinate(width))\" height=\"\(Self.coordinate(height))\" fill=\"#ffffff\"/>")
        lines += elements
        lines.append("</svg>")
        return lines.joined(separator: "\n")
    }
}
