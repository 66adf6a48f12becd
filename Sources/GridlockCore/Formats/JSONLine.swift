// One JSON object on one line, keys sorted, no escaped slashes: the shape of every JSON line
// Gridlock prints, so outputs diff cleanly and parse with any line-oriented tool.

import Foundation

public enum JSONLine {
    public static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
}
