// `report --format csv|json|jsonl`: every table the text shows, as plain numbers in fixed units
// (seconds, bytes, counts) under names that say the unit, so a spreadsheet or a script reads
// them without parsing "95 µs" or "1,080". JSON keeps each table's columns in order.

import Foundation
import GridlockCluster
import GridlockWire

/// Named tables of values, written as CSV (one table), JSON (an object of tables) or JSON
/// lines (a row a line, its table named): what `report` and `bench` print for programs.
struct NumericTables {
    var tables: [(name: String, columns: [String], rows: [[ReportValue]])]

    /// One table as CSV: a header, then a record a row; an absent value is an empty field.
    func csv(_ table: String) -> String {
        let (_, columns, rows) = tables.first { $0.name == table }!
        let lines = [columns.joined(separator: ",")] + rows.map { row in
            row.map { value -> String in
                switch value {
                case .integer(let number): number.map(String.init) ?? ""
                case .real(let number): number.map(Self.number) ?? ""
                case .text(let text): text.map(ReportPrinter.csvField) ?? ""
                }
            }.joined(separator: ",")
        }
        return lines.joined(separator: "\n")
    }

    /// Every table, as one JSON object whose keys are the tables.
    var json: String {
        "{\n" + tables.map { table, columns, rows in
            "  \"\(table)\": [" + rows.map { "\n    " + Self.object(columns, $0) }.joined(separator: ",") + (rows.isEmpty ? "]" : "\n  ]")
        }.joined(separator: ",\n") + "\n}"
    }

    /// Every row of every table as one JSON object a line, its table under "table".
    var jsonLines: String {
        tables.flatMap { table, columns, rows in
            rows.map { Self.object(["table"] + columns, [.text(table)] + $0) }
        }.joined(separator: "\n")
    }

    private static func object(_ columns: [String], _ values: [ReportValue]) -> String {
        "{" + zip(columns, values).map { "\(string($0)): \(json($1))" }.joined(separator: ", ") + "}"
    }

    private static func json(_ value: ReportValue) -> String {
        switch value {
        case .integer(let number): number.map(String.init) ?? "null"
        // A number JSON cannot hold (an infinite ratio from a hostile database) is null.
        case .real(let number): number.flatMap { $0.isFinite ? Self.number($0) : nil } ?? "null"
        case .text(let text): text.map(string) ?? "null"
        }
    }

    /// A finite number as JSON and CSV write it (shortest form that reads back the same);
    /// anything else cannot be written as a number and is left out.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The tables of `report`: per group, per host and worker, the batches, the jobs that did not run.
enum NumericReport {
    enum Table: String, CaseIterable {
        case groups, scores, ratios, throughput, batches, machines, problems
    }

    static let scoreFields: [(String, @Sendable (SolverScores.Row) -> ReportValue)] = [
        ("batch", { .text($0.batch) }), ("time", { .text($0.basis.rawValue) }), ("kind", { .text($0.kind.rawValue) }), ("solver", { .text($0.solver) }), ("puzzles", { .integer($0.puzzles) }),
        ("solved", { .integer($0.solved) }), ("wrong", { .integer($0.wrong) }), ("timeouts", { .integer($0.timeouts) }),
        ("memouts", { .integer($0.memouts) }), ("par2_seconds", { .real($0.par2Seconds) }), ("fastest", { .integer($0.fastest) }),
        ("vbs_share", { .real($0.vbsShare) }),
    ]

    static let ratioFields: [(String, @Sendable (SolverScores.RatioRow) -> ReportValue)] = [
        ("batch", { .text($0.batch) }), ("time", { .text($0.basis.rawValue) }), ("kind", { .text($0.kind.rawValue) }), ("solver", { .text($0.solver) }), ("baseline", { .text($0.baseline) }),
        ("puzzles", { .integer($0.estimate.puzzles) }), ("pairs", { .integer($0.estimate.pairs) }), ("ratio", { .real($0.estimate.ratio) }),
        ("measured_ci95_low", { .real($0.estimate.measurement?.lowerBound) }), ("measured_ci95_high", { .real($0.estimate.measurement?.upperBound) }),
        ("puzzles_ci95_low", { .real($0.estimate.acrossPuzzles?.lowerBound) }), ("puzzles_ci95_high", { .real($0.estimate.acrossPuzzles?.upperBound) }),
    ]

    static let batchFields = [
        "id", "started", "host", "cores", "configuration", "revision", "solvers", "jobs", "time_limit_seconds", "wall_limit_seconds",
        "memory_limit_bytes", "command", "workers", "pinning", "paired", "repeats", "load_at_start", "load_at_end", "outside_solvers", "wire",
        "quarantined",
    ]

    static func tables(
        _ report: BatchReport, scores: [SolverScores.Row]?, ratios: [SolverScores.RatioRow]?, batches: [BatchRecord], machines: [(batch: String, machine: MachineRecord)], problems: [StoredRow]
    ) -> NumericTables {
        NumericTables(tables: [
            (Table.groups.rawValue, GroupStatistics.fields.map(\.name), report.statistics.map { row in GroupStatistics.fields.map { $0.value(row) } }),
            (Table.scores.rawValue, Self.scoreFields.map(\.0), (scores ?? []).map { row in Self.scoreFields.map { $0.1(row) } }),
            (Table.ratios.rawValue, Self.ratioFields.map(\.0), (ratios ?? []).map { row in Self.ratioFields.map { $0.1(row) } }),
            (Table.throughput.rawValue, ThroughputRow.fields.map(\.name), report.throughput.map { row in ThroughputRow.fields.map { $0.value(row) } }),
            (Table.batches.rawValue, Self.batchFields, batches.map {
                [.text($0.batch), .text($0.started), .text($0.host), .integer($0.cores), .text($0.configuration), .text($0.revision),
                 .text($0.solvers), .integer($0.jobs), .real($0.limits.cpuSeconds), .real($0.wallLimitSeconds), .integer($0.limits.memoryBytes),
                 .text($0.recipe.map(RecipeText.commandLine)), .integer($0.recipe?.workers), .text($0.recipe?.pinning),
                 .text($0.recipe.map { $0.paired ? "yes" : "no" }), .integer($0.recipe?.repeats), .real($0.recipe?.loadAtStart),
                 .real($0.recipe?.loadAtEnd), .text($0.recipe.map(RecipeText.outsideSolvers)), .text($0.recipe?.security?.rawValue),
                 .text($0.recipe?.quarantined?.joined(separator: "; "))]
            }),
            (Table.machines.rawValue, MachineTable.fields, machines.map { MachineTable.values($0.batch, $0.machine) }),
            (Table.problems.rawValue, ["batch", "job", "source", "solver", "status", "error"], problems.map {
                [.text($0.batch), .integer($0.job), .text($0.source), .text($0.solver), .text($0.status.rawValue), .text($0.error)]
            }),
        ])
    }
}
