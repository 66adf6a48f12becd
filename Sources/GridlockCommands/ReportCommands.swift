// `gridlock report` and `gridlock export`: the tables and the rows of a results database.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, markdown, csv, json, jsonl
}

extension NumericReport.Table: ExpressibleByArgument {}

/// The database and batch that `report` and `export` read.
struct DatabaseOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(stringLiteral: ResultsDatabase.help), completion: .file(extensions: ["sqlite", "db"]))
    var db: String

    @Option(help: "Only this batch (default: all).")
    var batch: String?

    /// The database and the files SQLite keeps beside it: what an -o file must not be.
    var files: [String] { ResultsDatabase.files(db) }

    func open() throws -> ResultStore {
        let store = try ResultsDatabase.open(db, readOnly: true)
        // A misspelt name would print empty tables and exit 0, as if the batch had no jobs.
        if let batch {
            let names = try store.batchNames()
            guard names.contains(batch) else {
                let known = names.isEmpty ? "it holds no batch" : "its batches: " + names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", ..." : "")
                throw CommandFailure("no batch named \(batch) in \(store.location) (\(known))".printable)
            }
        }
        return store
    }
}

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the timing and memory tables of a results database.",
        usage: "gridlock report <db> [<options>]",
        discussion: """
            --format html writes one self-contained page (no network needed to open it): the \
            tables; solve times per solver and band; each solver's time ratio to the first of \
            its kind with a 95% interval; each recent batch's jobs stored over time and its \
            workers' timeline; memory against states; and the slowest, hardest, failed and \
            wrong puzzles, each of which opens a player of its solution (play, stop, step \
            back, step forward, reset).

            Examples:
              gridlock report gridlock-results.sqlite --format markdown
              gridlock report gridlock-results.sqlite --format html -o report.html
            """
    )

    /// The formats of the tables, and the page.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, csv, json, jsonl, html

        var tables: ReportFormat? { ReportFormat(rawValue: rawValue) }
    }

    @OptionGroup var database: DatabaseOptions

    @Option(help: "text or markdown (tables to read); csv, json or jsonl (plain numbers in seconds, bytes and counts, every table; json: one object of tables; jsonl: a row a line, its table named); html (a page with charts and a puzzle player).")
    var format: Format = .text

    @Option(help: "The table that --format csv prints: groups (per solver and band), scores (solved, PAR-2 and the virtual best solver, per solver), throughput (per host and worker), batches, machines (each host's CPU, kernel, memory and load, as its workers saw them) or problems.")
    var table: NumericReport.Table = .groups

    @Option(name: [.short, .customLong("output")], help: "Write to this file instead of standard output.", completion: .file())
    var output: String?

    @OptionGroup var time: TimeOption

    func run() throws {
        var undecodable: [UndecodableRow] = []
        let store = try database.open()
        let text: String
        if let tables = format.tables {
            text = try ReportPrinter.render(store, batch: database.batch, format: tables, table: table, basis: time.basis, undecodable: &undecodable) + "\n"
        } else {
            text = try HTMLReportBuilder.page(store, path: database.db, batch: database.batch, basis: time.basis, undecodable: &undecodable)
        }
        if let output {
            do {
                try OutputFile.write(Data(text.utf8), to: output, inputs: database.files)
            } catch {
                throw CommandFailure("cannot write \(output): \(error)")
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        try ReportPrinter.complain(of: undecodable)
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every stored job: one JSON object per line, or CSV.",
        discussion: """
            Keys (and CSV columns), in this order: batch, job, kind, puzzle, solver, source, \
            status, moves, solution, cluster, error, attempts, worker, host, examined, enqueued, \
            maxQueue, statesStored, memoryBytes, seconds, cpuSeconds, peakRSSBytes, \
            expectedMoves, storedAt (seconds since 1970, when the sink stored the row), \
            fingerprint. Times are seconds, memory bytes; a value the row lacks is null (an \
            empty CSV field). In CSV, control characters in a text (the line breaks of a \
            multi-line puzzle) are escaped as \\u{A} and so on, so that a record is one line; \
            JSON lines keep them as they are.

            Example:
              gridlock export gridlock-results.sqlite --format jsonl > results.jsonl
              gridlock export gridlock-results.sqlite --format csv > results.csv
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, csv
    }

    @OptionGroup var database: DatabaseOptions

    @Option(help: "jsonl (one object a line) or csv (a header, then a record a row).")
    var format: Format = .jsonl

    func run() throws {
        let store = try database.open()
        if format == .csv { print(StoredRow.csvHeader) }
        var undecodable: [UndecodableRow] = []
        try store.forEachRow(batch: database.batch, reading: .everything, undecodable: { undecodable.append($0) }) { row in
            print(format == .csv ? row.csvRecord : JSONLine.encode(row))
        }
        // Named on standard error, and the exit says the export is not whole.
        guard !undecodable.isEmpty else { return }
        for row in undecodable.prefix(10) { StandardError.write("export: left out \(row)\n") }
        throw CommandFailure("\(undecodable.count) stored rows could not be read and are not in the export (another program changed the database?)")
    }
}

enum ReportPrinter {
    /// The tables of `batch` (or of every batch) in `store`, read as a stream; rows that do not
    /// decode are left out of them and collected in `undecodable`.
    static func render(
        _ store: ResultStore, batch: String?, format: ReportFormat, table: NumericReport.Table = .groups, basis: TimeBasis = .cpu,
        undecodable: inout [UndecodableRow]
    ) throws -> String {
        var report = BatchReport()
        report.scores = try scores(store, batch: batch, basis: basis)
        var skipped: [UndecodableRow] = []
        try store.forEachRow(batch: batch, reading: .tables, undecodable: { skipped.append($0) }) { report.add($0) }
        undecodable += skipped
        return try render(
            report, store: store, batch: batch, problems: try store.problems(batch: batch, limit: StreamedReport.problemLimit), format: format,
            table: table)
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
        try render(
            report, store: store, batch: streamed.batch, problems: try store.problems(batch: streamed.batch, jobs: streamed.problemJobs),
            format: format, table: .groups)
    }

    private static func render(
        _ report: BatchReport, store: ResultStore, batch: String?, problems: [StoredRow], format: ReportFormat, table: NumericReport.Table
    ) throws -> String {
        let environment = try store.batches().filter { batch == nil || $0.batch == batch }
        let machines = try store.machines(batch: batch)
        if let warning = MachineTable.mixedModels(machines.map(\.machine)) { StandardError.write("report: warning: \(warning)\n") }
        if report.scores.untimedAnswers > 0 {
            StandardError.write("report: warning: \(report.scores.untimedAnswers) right answers have no CPU time (rows of a build that did not measure it): their CPU figures mean nothing; --time wall reads their wall time\n")
        }
        // Finished once: scoring the puzzles still held takes a pass over them.
        let scores = report.scoreRows
        let ratios = report.ratioRows
        let tables = { NumericReport.tables(report, scores: scores, ratios: ratios, batches: environment, machines: machines, problems: problems) }
        switch format {
        case .text, .markdown:
            let render = format == .text ? TextTable.aligned : TextTable.markdown
            var parts = environment.map { RecipeText.batchLines($0).joined(separator: "\n") }
            parts.append(render(BatchReport.columns, report.rows))
            let basis = report.scores.basis
            if let scores { parts.append(render(BatchReport.scoreColumns(basis), BatchReport.scoreText(scores))) }
            if let ratios { parts.append(render(BatchReport.ratioColumns(basis), BatchReport.ratioText(ratios))) }
            parts.append(render(BatchReport.throughputColumns, report.throughputRows))
            if !machines.isEmpty { parts.append(render(MachineTable.columns, machines.map { MachineTable.row($0.batch, $0.machine) })) }
            if !problems.isEmpty {
                parts.append("Jobs that did not run (the first 50):\n" + problems.map { "  \($0.source) [\($0.solver)] \($0.status.rawValue): \($0.error ?? "")".printable }.joined(separator: "\n"))
            }
            return parts.joined(separator: "\n\n")
        case .csv:
            return tables().csv(table.rawValue)
        case .json:
            return tables().json
        case .jsonl:
            return tables().jsonLines
        }
    }

    static func csvField(_ value: String) -> String { CSVField.quoted(value) }

    /// The scores of rows read in job order, of `basis`, each batch under its own limit.
    static func scores(_ store: ResultStore, batch: String?, basis: TimeBasis) throws -> SolverScores {
        var scores = SolverScores(basis: basis)
        for recorded in try store.batches() where batch == nil || recorded.batch == batch {
            if let limit = basis.limit(cpuSeconds: recorded.limits.cpuSeconds, wallSeconds: recorded.wallLimitSeconds) {
                scores.batchLimits[recorded.batch] = limit
            }
        }
        return scores
    }
}
