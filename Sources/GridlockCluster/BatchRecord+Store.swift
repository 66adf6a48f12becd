// A batch's record as the results database's batches table keeps it: its recipe as JSON, its
// limits in words.

import Foundation
import GRDB
import GridlockWire

/// A batch's record (BatchRecord, the one type the coordinator sends, the sink stores and every
/// reader gets back), as the batches table keeps it.
extension BatchRecord {
    /// A recipe as the batches table keeps it.
    package static func json(_ recipe: BatchRecipe) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(recipe)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    package static func recipe(json: String) -> BatchRecipe? {
        try? JSONDecoder().decode(BatchRecipe.self, from: Data(json.utf8))
    }

    /// The batches table's solvers column: each solver once, in order, with the version.
    package static func solversText(_ solvers: [String]) -> String {
        Set(solvers).sorted().map { "\($0)@\(solverVersion)" }.joined(separator: ",")
    }

    /// Records a batch, or leaves the record stored before: legal in both dialects but for
    /// the placeholders (`?` in SQLite, `$n` in PostgreSQL).
    package static func insertSQL(placeholder: (Int) -> String) -> String {
        let columns = "id, started, host, cores, configuration, revision, solvers, jobs, time_limit_seconds, wall_limit_seconds, memory_limit_bytes, recipe"
        let values = (1...12).map(placeholder).joined(separator: ", ")
        return "INSERT INTO batches (\(columns)) VALUES (\(values)) ON CONFLICT (id) DO NOTHING"
    }

    /// The values `insertSQL` binds, in its order.
    package var storedValues: [DatabaseValue] {
        [batch.databaseValue, started.databaseValue, host.databaseValue, cores.databaseValue, configuration.databaseValue,
         revision.databaseValue, solvers.databaseValue, jobs.databaseValue, limits.cpuSeconds.databaseValue, wallLimitSeconds.databaseValue,
         limits.memoryBytes.databaseValue, (recipe.map(Self.json)).databaseValue]
    }

    /// A stored record, its cells looked up by column name. A value another program stored
    /// that a field cannot hold throws, naming the column; limits that are not positive
    /// numbers are no limits, and a recipe that does not decode is none.
    package init(stored cell: (String) -> DatabaseValue) throws {
        func text(_ column: String) throws -> String { try StoredValue.text(cell(column), "batches.\(column)") }
        func integer(_ column: String) throws -> Int { try StoredValue.integer(cell(column), "batches.\(column)") }
        func positive(_ column: String) -> Double? {
            (try? StoredValue.real(cell(column), column)).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        }
        self.init(
            batch: try text("id"), started: try text("started"), host: try text("host"), cores: try integer("cores"),
            configuration: try text("configuration"), revision: try text("revision"), solvers: try text("solvers"), jobs: try integer("jobs"),
            limits: JobLimits(cpuSeconds: positive("time_limit_seconds"), memoryBytes: positive("memory_limit_bytes").flatMap { $0 < 9e18 ? Int($0) : nil }),
            wallLimitSeconds: positive("wall_limit_seconds"),
            recipe: (try? StoredValue.optionalText(cell("recipe"), "recipe")).flatMap { $0 }.flatMap(Self.recipe(json:)))
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
