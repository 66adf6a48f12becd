// `gridlock report` and `gridlock export`: the tables and the rows of a results database.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, markdown, csv, json
}

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the timing and memory tables of a results database.",
        discussion: "Example:\n  gridlock report gridlock-results.sqlite --format markdown"
    )

    @Argument(help: "The SQLite results file.")
    var db: String

    @Option(help: "Only this batch (default: all).")
    var batch: String?

    @Option(help: "Table format: text, markdown, csv or json.")
    var format: ReportFormat = .text

    func run() throws {
        guard FileManager.default.fileExists(atPath: db) else { throw ValidationError("no such database: \(db)") }
        let store = try ResultStore(path: db)
        let environments = try store.batches().filter { batch == nil || $0.id == batch }
        print(ReportPrinter.render(try store.rows(batch: batch), environment: environments, format: format))
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every stored job, one JSON object per line.",
        discussion: "Example:\n  gridlock export gridlock-results.sqlite --format jsonl > results.jsonl"
    )

    @Argument(help: "The SQLite results file.")
    var db: String

    @Option(help: "Only this batch (default: all).")
    var batch: String?

    @Option(help: "Output format: jsonl.")
    var format = "jsonl"

    func validate() throws {
        guard format == "jsonl" else { throw ValidationError("the only export format is jsonl") }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: db) else { throw ValidationError("no such database: \(db)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for row in try ResultStore(path: db).rows(batch: batch) {
            print(String(decoding: try encoder.encode(ExportedJob(row)), as: UTF8.self))
        }
    }
}

/// The exported shape of a job: the keys users rely on.
struct ExportedJob: Encodable {
    var batch: String
    var job: Int
    var puzzle: String
    var source: String
    var solver: String
    var status: String
    var moves: Int?
    var expectedMoves: Int?
    var solution: String
    var cluster: Int?
    var error: String?
    var attempts: Int
    var worker: String
    var seconds: Double
    var cpuSeconds: Double
    var peakRSSBytes: Int
    var examined: Int
    var enqueued: Int
    var memoryBytes: Int

    init(_ row: StoredResult) {
        batch = row.batch
        job = row.job
        puzzle = row.puzzle
        source = row.source
        solver = row.solver
        status = row.status
        moves = row.moves
        expectedMoves = row.expectedMoves
        solution = row.solution
        cluster = row.cluster
        error = row.error
        attempts = row.attempts
        worker = row.worker
        seconds = row.seconds
        cpuSeconds = row.cpuSeconds
        peakRSSBytes = row.peakRSSBytes
        examined = row.examined
        enqueued = row.enqueued
        memoryBytes = row.memoryBytes
    }
}

enum ReportPrinter {
    static func render(_ rows: [StoredResult], environment: [BatchEnvironment], format: ReportFormat) -> String {
        let table = BatchReport.rows(rows)
        let throughput = BatchReport.throughputRows(rows)
        let invalid = rows.filter { $0.status == "invalid" || $0.status == "failed" }
        switch format {
        case .text, .markdown:
            let render = format == .text ? TextTable.aligned : TextTable.markdown
            var parts = environment.map {
                "batch \($0.id): \($0.jobs) jobs, started \($0.started) on \($0.host) (\($0.cores) cores), \($0.configuration) build, revision \($0.revision), solvers \($0.solvers)"
            }
            parts.append(render(BatchReport.columns, table))
            parts.append(render(BatchReport.throughputColumns, throughput))
            if !invalid.isEmpty {
                parts.append("Jobs that did not run:\n" + invalid.prefix(50).map { "  \($0.source) [\($0.solver)] \($0.status): \($0.error ?? "")" }.joined(separator: "\n"))
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

    static func csvField(_ value: String) -> String {
        value.contains(",") || value.contains("\"") ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}
