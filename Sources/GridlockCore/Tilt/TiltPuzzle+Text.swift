// Writing a tilt board out: its rows, on lines or joined by `/`, and JSON.

extension TiltPuzzle {
    public func rows(_ state: TiltState) -> [String] {
        (0..<height).map { row in
            String((0..<width).map { column -> Character in
                let bit: UInt64 = 1 << UInt64(row * width + column)
                if walls & bit != 0 { return "#" }
                if state.plain & bit != 0 { return "*" }
                if let colour = state.colours.firstIndex(where: { $0 & bit != 0 }) { return colourNames[colour] }
                return "."
            })
        }
    }

    public var lineText: String { rows(start).joined(separator: "/") }
    public func gridText(_ state: TiltState) -> String { rows(state).joined(separator: "\n") }
    public var jsonText: String { JSONLine.encode(JSONForm(kind: "tilt", rows: rows(start), label: label)) }
}
