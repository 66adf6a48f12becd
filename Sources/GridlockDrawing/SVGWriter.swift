// A scene as SVG text: one self-contained document (no external font, image or style), which
// the HTML report embeds as it is. Wood is a gradient across the grain plus a few grain lines
// along it, seeded per piece so that pieces differ but a picture is the same every time.

public enum SVGWriter {
    public static func svg(_ scene: Scene) -> String {
        var defs: [String] = []
        var known: Set<String> = []
        var body: [String] = []
        for shape in scene.shapes {
            switch shape {
            case .box(let area, let radius, let fill, let outline, let role):
                var paint = fill.baseColour.hex
                if case .wood(let colour, let horizontal, _) = fill {
                    let id = "wood-\(colour.hex.dropFirst())-\(horizontal ? "h" : "v")"
                    if known.insert(id).inserted { defs.append(gradient(id: id, colour: colour, horizontal: horizontal)) }
                    paint = "url(#\(id))"
                }
                var attributes = "x=\"\(number(area.x))\" y=\"\(number(area.y))\" width=\"\(number(area.width))\" height=\"\(number(area.height))\""
                if radius > 0 { attributes += " rx=\"\(number(radius))\"" }
                attributes += " fill=\"\(paint)\""
                if let outline { attributes += " stroke=\"\(outline.hex)\" stroke-width=\"1.5\"" }
                if let role { attributes += " data-role=\"\(escaped(role))\"" }
                body.append("<rect \(attributes)/>")
                if case .wood(let colour, let horizontal, let seed) = fill {
                    body.append(contentsOf: grain(area, radius: radius, colour: colour, horizontal: horizontal, seed: seed))
                }
            case .line(let x1, let y1, let x2, let y2, let colour, let width):
                body.append("<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(colour.hex)\" stroke-width=\"\(number(width))\" stroke-linecap=\"round\"/>")
            case .label(let text, let x, let y, let size, let colour, let bold):
                body.append("<text x=\"\(number(x))\" y=\"\(number(y + size / 2))\" text-anchor=\"middle\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"\(number(size * 1.4))\"\(bold ? " font-weight=\"bold\"" : "") fill=\"\(colour.hex)\">\(escaped(text))</text>")
            }
        }
        let width = number(scene.width), height = number(scene.height)
        var lines = ["<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\">"]
        lines.append("<title>\(escaped(scene.title))</title>")
        if !defs.isEmpty { lines.append("<defs>" + defs.joined() + "</defs>") }
        lines.append("<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(scene.background.hex)\"/>")
        lines += body
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Light and dark bands across the grain.
    static func gradient(id: String, colour: Colour, horizontal: Bool) -> String {
        let stops = [(0.0, 1.12), (0.3, 1.0), (0.55, 0.9), (0.8, 1.04), (1.0, 0.82)]
        let direction = horizontal ? "x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\"" : "x1=\"0\" y1=\"0\" x2=\"1\" y2=\"0\""
        return "<linearGradient id=\"\(id)\" \(direction)>"
            + stops.map { "<stop offset=\"\(number($0.0))\" stop-color=\"\(colour.shaded($0.1).hex)\"/>" }.joined()
            + "</linearGradient>"
    }

    /// Three grain lines along the piece, kept clear of its rounded ends.
    static func grain(_ area: Rectangle, radius: Double, colour: Colour, horizontal: Bool, seed: Int) -> [String] {
        var random = UInt64(truncatingIfNeeded: seed &* 2_654_435_761 &+ 1)
        func next() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(random >> 11) / Double(1 << 53)
        }
        let across = horizontal ? area.height : area.width
        let along = horizontal ? area.width : area.height
        return (0..<3).map { line in
            let offset = across * (0.22 + 0.26 * Double(line) + 0.08 * (next() - 0.5))
            let start = radius + along * 0.05 * next(), end = along - radius - along * 0.05 * next()
            let bow = across * 0.06 * (next() - 0.5)
            let points = horizontal
                ? (area.x + start, area.y + offset, area.x + (start + end) / 2, area.y + offset + bow, area.x + end, area.y + offset)
                : (area.x + offset, area.y + start, area.x + offset + bow, area.y + (start + end) / 2, area.x + offset, area.y + end)
            return "<path d=\"M\(number(points.0)) \(number(points.1)) Q\(number(points.2)) \(number(points.3)) \(number(points.4)) \(number(points.5))\" fill=\"none\" stroke=\"\(colour.shaded(0.72).hex)\" stroke-opacity=\"0.45\" stroke-width=\"1.2\"/>"
        }
    }

    /// A coordinate with at most two decimals, and no "-0".
    public static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        // Whole numbers print as integers while they fit one; others (huge, NaN) as they are.
        if let whole = Int(exactly: rounded) { return String(whole) }
        return rounded.isFinite ? String(rounded) : "0"
    }

    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
