// The fourth fuzz target: results databases that another program, a disk fault or a hostile
// user changed. An input is a control byte and the rest:
//
//   0xFF    the rest is the whole file, as bytes
//   other   edits to a small database that Gridlock wrote (even: results of two batches, a
//           result of each status; odd: a puzzle collection of three kinds): each edit sets a
//           cell of any of its tables to a NULL, an integer, a
//           real (NaN and infinities included), text that need not be UTF-8 or a blob; copies
//           or deletes a row; or changes the schema (drops a table or a column, adds one,
//           renames one, sets the schema version)
//
// Then `report` (every format, every batch and one), `export` and `collection list/export` run
// on the file as `gridlock` runs them, with their output thrown away. None may trap, and none
// may change a byte of the file: reading never writes. Selected with GRIDLOCK_FUZZ_TARGET=database.

import ArgumentParser
import Foundation
import GRDB
import GridlockCluster
import GridlockCommands
import GridlockCore
import GridlockWire

enum DatabaseTarget {
    static let rawFile: UInt8 = 0xFF
    static let maximumEdits = 16
    /// GRIDLOCK_FUZZ_VERBOSE=1: each command's error on standard error, to see what an input reaches.
    static let verbose = getenv("GRIDLOCK_FUZZ_VERBOSE") != nil

    /// A private directory for the files, made once per process.
    static let directory: String = {
        var template = Array("/tmp/gridlock-fuzz-db-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp: \(errno)") }
        // Commands print their tables: thrown away, or the fuzzer's own lines drown in them.
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 { dup2(null, STDOUT_FILENO) }
        return String(cString: made)
    }()

    /// The databases Gridlock writes, as bytes: a results database of a small batch (even
    /// control bytes), a puzzle collection (odd ones).
    static let templates: [[UInt8]] = [("results", writeResults), ("collection", writeCollection)].map { name, write in
        let path = directory + "/\(name).sqlite"
        do {
            try write(path)
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            fatalError("the \(name) template: \(error)")
        }
    }

    static func writeCollection(at path: String) throws {
        let collection = try PuzzleCollection(path: path)
        for (index, text) in ["ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo", "1 2 3 4 5 6 7 0 8", "..a.b#/a...../..ca../bc..#./....../..b..."].enumerated() {
            let puzzle = try ParsedPuzzle.parse(text)
            guard case .success(let analysis) = StateSpaceAnalysis.analyze(puzzle, maxStates: 100_000) else { continue }
            _ = try collection.add(kind: puzzle.kind, text: text, label: "p\(index)", source: "f.txt:\(index + 1)", analysis: analysis)
        }
    }

    static func writeResults(at path: String) throws {
        let store = try ResultStore(path: path)
        let worker = WorkerIdentity(host: "fuzz", pid: 7)
        for batch in ["a", "b"] {
            try store.record(BatchRecord(
                batch: batch, started: "2026-01-01T00:00:00Z", host: "fuzz", cores: 2, configuration: "release", revision: "r",
                solvers: "", jobs: 0, limits: JobLimits(), wallLimitSeconds: nil))
            let statuses: [JobStatus] = [.solved, .unsolvable, .cutoff, .failed, .invalid, .solved]
            let results = statuses.enumerated().map { index, status in
                let job = Job(
                    batch: batch, id: index, attempt: 0, kind: index == 5 ? .sudoku : .rushhour, puzzle: "p\(index)", solver: "bfs",
                    maxStates: 9, timeoutSeconds: nil, source: "f.txt:\(index + 1)")
                var result = JobResult(answering: job, worker: worker, status: status)
                result.moves = status == .solved ? 10 + index : nil
                result.expectedMoves = index == 0 ? 11 : nil
                result.seconds = 0.001 * Double(index)
                result.examined = index * 100
                result.error = status == .failed || status == .invalid ? "why" : nil
                return result
            }
            _ = try store.store(results)
            try store.recordTotal(batch: batch, jobs: results.count)
        }
    }

    static func run(_ input: [UInt8]) {
        guard let control = input.first else { return }
        let path = directory + "/db.sqlite"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        let bytes = control == rawFile ? Array(input.dropFirst()) : templates[Int(control) % templates.count]
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fatalError("cannot write \(path)") }
        if control != rawFile { edit(path, with: Array(input.dropFirst())) }
        let before = try? Data(contentsOf: URL(fileURLWithPath: path))
        for arguments in commands(path) {
            do {
                var command = try Gridlock.parseAsRoot(arguments)
                try command.run()
            } catch {
                let message = Gridlock.fullMessage(for: error)
                if verbose { FileHandle.standardError.write(Data("\(arguments.dropLast(arguments.count - 1)): \(message)\n".utf8)) }
            }
        }
        let after = try? Data(contentsOf: URL(fileURLWithPath: path))
        if before != after { fatalError("reading the database changed it: \(before?.count ?? -1) bytes, then \(after?.count ?? -1)") }
    }

    static func commands(_ path: String) -> [[String]] {
        ReportFormatName.allCases.map { ["report", path, "--format", $0.rawValue] } + [
            ["report", path, "--format", "csv", "--table", "throughput"], ["report", path, "--format", "csv", "--table", "problems"],
            ["report", path, "--batch", "a"], ["export", path], ["export", path, "--batch", "b"], ["export", path, "--format", "csv"],
            ["collection", "list", path], ["collection", "export", path],
        ]
    }

    enum ReportFormatName: String, CaseIterable {
        case text, markdown, csv, json, jsonl
    }

    /// Applies the input's edits to the database at `path`; an edit SQLite refuses is skipped.
    static func edit(_ path: String, with input: [UInt8]) {
        guard let queue = try? DatabaseQueue(path: path) else { return }
        var reader = EditReader(bytes: input[...])
        queue.writeWithoutTransaction { db in
            for _ in 0..<maximumEdits {
                guard let operation = reader.byte() else { break }
                let tables = (try? String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) ?? []
                guard !tables.isEmpty else { break }
                let table = "\"" + tables[Int(operation) % tables.count] + "\""
                let columns = (try? Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }) ?? []
                guard !columns.isEmpty else { continue }
                let column = "\"" + columns[Int(reader.byte() ?? 0) % columns.count] + "\""
                let row = Int(reader.byte() ?? 0)
                let pick = "rowid = (SELECT rowid FROM \(table) LIMIT 1 OFFSET \(row % 16))"
                switch (operation >> 2) % 6 {
                case 0, 1:
                    let (sql, value) = reader.value()
                    try? db.execute(sql: "UPDATE \(table) SET \(column) = \(sql) WHERE \(pick)", arguments: [value])
                case 2:
                    let (sql, value) = reader.value()
                    try? db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS copied AS SELECT * FROM \(table) WHERE 0")
                    try? db.execute(sql: "DELETE FROM copied")
                    try? db.execute(sql: "INSERT INTO copied SELECT * FROM \(table) WHERE \(pick)")
                    try? db.execute(sql: "UPDATE copied SET \(column) = \(sql)", arguments: [value])
                    try? db.execute(sql: "INSERT INTO \(table) SELECT * FROM copied")
                    try? db.execute(sql: "DROP TABLE copied")
                case 3:
                    try? db.execute(sql: "DELETE FROM \(table) WHERE \(pick)")
                case 4:
                    switch row % 5 {
                    case 0: try? db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(column)")
                    case 1: try? db.execute(sql: "ALTER TABLE \(table) ADD COLUMN extra\(row) TEXT")
                    case 2: try? db.execute(sql: "ALTER TABLE \(table) RENAME COLUMN \(column) TO renamed\(row)")
                    case 3: try? db.execute(sql: "DROP TABLE \(table)")
                    default: try? db.execute(sql: "DELETE FROM grdb_migrations WHERE rowid = (SELECT max(rowid) FROM grdb_migrations)")
                    }
                default:
                    try? db.execute(sql: "PRAGMA user_version = \(Int32(truncatingIfNeeded: reader.integer()))")
                }
            }
        }
    }
}

/// The edits' bytes, read as operations and values; past the end, zeros.
struct EditReader {
    var bytes: ArraySlice<UInt8>

    mutating func byte() -> UInt8? { bytes.popFirst() }

    mutating func integer() -> Int64 {
        (0..<8).reduce(Int64(0)) { value, _ in value << 8 | Int64(byte() ?? 0) }
    }

    /// A value for a cell: the SQL that binds it and the argument.
    mutating func value() -> (sql: String, argument: DatabaseValue) {
        switch (byte() ?? 0) % 7 {
        case 0: return ("?", .null)
        case 1: return ("?", integer().databaseValue)
        case 2: return ("?", Double(bitPattern: UInt64(bitPattern: integer())).databaseValue)
        case 3: return ("?", [Int64.max, Int64.min, -1, 0, 1][Int(byte() ?? 0) % 5].databaseValue)
        case 4: return ("CAST(? AS TEXT)", Data(take(Int(byte() ?? 0) % 48)).databaseValue)
        case 5: return ("?", String(decoding: take(Int(byte() ?? 0) % 48), as: UTF8.self).databaseValue)
        default: return ("?", Data(take(Int(byte() ?? 0) % 48)).databaseValue)
        }
    }

    private mutating func take(_ count: Int) -> [UInt8] {
        let taken = Array(bytes.prefix(count))
        bytes = bytes.dropFirst(count)
        return taken
    }
}
