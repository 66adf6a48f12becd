// `gridlock report` and `gridlock export`: the tables and the rows of a results database.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, markdown, csv, json
}

/// The database and batch that `report` and `export` read.
struct DatabaseOptions: ParsableArguments {
    @Argument(help: "The SQLite results file.")
    var db: String

    @Option(help: "Only this batch (default: all).")
    var batch: String?

    func open() throws -> ResultStore {
        guard FileManager.default.fileExists(atPath: db) else { throw ValidationError("no such database: \(db)") }
        return try ResultStore(path: db, readOnly: true)
    }
}

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the timing and memory tables of a results database.",
        discussion: "Example:\n  gridlock report gridlock-results.sqlite --format markdown"
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Table format: text, markdown, csv or json.")
    var format: ReportFormat = .text

    func run() throws {
        var undecodable: [UndecodableRow] = []
        print(try ReportPrinter.render(try database.open(), batch: database.batch, format: format, undecodable: &undecodable))
        try ReportPrinter.complain(of: undecodable)
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every stored job, one JSON object per line.",
        discussion: """
            Keys: batch, job, kind, puzzle, source, solver, status, moves, expectedMoves, solution,
            cluster, error, attempts, worker, host, examined, enqueued, maxQueue, statesStored,
            memoryBytes, seconds, cpuSeconds, peakRSSBytes.

            Example:
              gridlock export gridlock-results.sqlite --format jsonl > results.jsonl
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Output format: jsonl.")
    var format = "jsonl"

    func validate() throws {
        guard format == "jsonl" else { throw ValidationError("the only export format is jsonl") }
    }

    func run() throws {
        try database.open().forEachExportedRow(batch: database.batch) { row in
            print(JSONLine.encode(row))
        }
    }
}

enum ReportPrinter {
    /// The tables of `batch` (or of every batch) in `store`, read as a stream; rows that do not
    /// decode are left out of them and collected in `undecodable`.
    static func render(_ store: ResultStore, batch: String?, format: ReportFormat, undecodable: inout [UndecodableRow]) throws -> String {
        var report = BatchReport()
        var skipped: [UndecodableRow] = []
        try store.forEachSummary(batch: batch, undecodable: { skipped.append($0) }) { report.add($0) }
        undecodable += skipped
        return try render(report, store: store, batch: batch, problems: try store.problems(batch: batch, limit: StreamedReport.problemLimit), format: format)
    }

    /// Names the rows left out of the tables (the first 10), and fails: the tables are not all
    /// there is.
    static func complain(of undecodable: [UndecodableRow]) throws {
        guard !undecodable.isEmpty else { return }
        for row in undecodable.prefix(10) { StandardError.write("report: left out \(row)\n") }
        throw CommandFailure("\(undecodable.count) stored rows could not be read and are not in the tables (another program changed the database?)")
    }

    /// The tables of one batch folded as it was stored: the same text, with no pass over its rows.
    static func render(_ streamed: StreamedReport, tables report: BatchReport, store: ResultStore, format: ReportFormat) throws -> String {
        try render(report, store: store, batch: streamed.batch, problems: try store.problems(batch: streamed.batch, jobs: streamed.problemJobs), format: format)
    }

    private static func render(_ report: BatchReport, store: ResultStore, batch: String?, problems: [StoredResult], format: ReportFormat) throws -> String {
        let environment = try store.batches().filter { batch == nil || $0.id == batch }
        let table = report.rows
        switch format {
        case .text, .markdown:
            let render = format == .text ? TextTable.aligned : TextTable.markdown
            var parts = environment.map {
                "batch \($0.id): \($0.jobs) jobs, started \($0.started) on \($0.host) (\($0.cores) cores), \($0.configuration) build, revision \($0.revision), solvers \($0.solvers)".printable
            }
            parts.append(render(BatchReport.columns, table))
            parts.append(render(BatchReport.throughputColumns, report.throughputRows))
            if !problems.isEmpty {
                parts.append("Jobs that did not run (the first 50):\n" + problems.map { "  \($0.source) [\($0.solver)] \($0.status): \($0.error ?? "")".printable }.joined(separator: "\n"))
            }
            return parts.joined(separator: "\n\n")
        case .csv:
            return ([BatchReport.columns] + table).map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\n")
        case .json:
            let objects = table.map { Dictionary(uniqueKeysWithValues: zip(BatchReport.columns, $0)) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let report = JSONReport(environment: environment, rows: objects)
            return String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self)
        }
    }

    struct JSONReport: Encodable {
        var environment: [BatchEnvironment]
        var rows: [[String: String]]
    }

    /// A CSV field: control characters escaped (so a carriage return or line feed never splits
    /// a record), quoted when it holds a comma or a quote.
    static func csvField(_ value: String) -> String {
        let value = value.printable
        return value.contains(",") || value.contains("\"") ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}
