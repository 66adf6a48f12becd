// A batch's record as the results database's batches table keeps it: its recipe as JSON, its
// limits in words.

import Foundation
import GRDB
import GridlockWire

/// A batch's record (BatchRecord, the one type the coordinator sends, the sink stores and every
/// reader gets back), as the batches table keeps it.
extension BatchRecord {
    /// A recipe as the batches table keeps it.
    static func json(_ recipe: BatchRecipe) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(recipe)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func recipe(json: String) -> BatchRecipe? {
        try? JSONDecoder().decode(BatchRecipe.self, from: Data(json.utf8))
    }

    /// "CPU 1 s, wall 30 s, memory 256 MiB", or nil without limits.
    public var limitsText: String? {
        // Three significant digits: a limit of a microsecond is not "0.00 s".
        let seconds = { (value: Double) in String(format: "%.3g s", value) }
        let parts = [limits.cpuSeconds.map { "CPU " + seconds($0) }, wallLimitSeconds.map { "wall " + seconds($0) },
                     limits.memoryBytes.map { "memory \($0.bytes)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
