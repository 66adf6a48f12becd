// The one decoder from a results row to a StoredRow, and the columns each reader asks for.
//
// A database may hold what no run of Gridlock stores: another program's rows, a row edited by
// hand, a fuzzer's. A value a field cannot hold is refused with the reason, naming the column
// ("moves holds text, not a number"), and the reader counts the row and names it by batch and
// job; nothing traps. The few fields the tables only sum or show (sizes, the CPU time, how a
// run ended, the verdict) take a neutral value instead, so one odd value does not hide a row.

import GRDB
import GridlockWire

extension StoredRow {
    /// The columns a reader needs. Each selection starts with `batch` and `job`, so that a row
    /// that does not decode can be named.
    public struct Reading: Sendable {
        let columns: [ResultColumn]

        init(_ names: [String]) {
            let wanted = Set(names + ["batch", "job"])
            columns = ResultColumn.all.filter { wanted.contains($0.name) }
        }

        /// Every column: `export`, and the jobs a report lists.
        public static let everything = Reading(ResultColumn.all.map(\.name))
        /// What the tables and scores read, for millions of rows.
        public static let tables = Reading([
            "kind", "solver", "source", "status", "moves", "expected_moves", "seconds", "cpu_seconds", "examined", "peak_rss_bytes",
            "memory_bytes", "worker_idle_rss_bytes", "host", "worker", "verdict", "termination", "repetition",
        ])
        /// What the HTML report draws and lists, its players included, and its tables.
        public static let htmlReport = Reading(tables.columns.map(\.name) + ["puzzle", "solution", "error", "states", "stored_at"])
        /// What `compare` pairs and times.
        public static let timing = Reading(["kind", "solver", "puzzle", "status", "moves", "expected_moves", "examined", "seconds", "cpu_seconds", "worker", "verdict"])
        /// What the sink's acknowledgement says of a stored job, and what a batch's tally counts.
        package static let acknowledgement = Reading(["fingerprint", "status", "moves", "expected_moves", "verdict"])

        /// "batch, job, kind, ...": the SELECT's column list.
        package var sql: String { columns.map(\.name).joined(separator: ", ") }
    }

    /// Decodes the first `reading.columns.count` cells of a row, which a SELECT of
    /// `reading.sql` gave (a SQLite row's values, or PostgreSQL's cells as SQLite's); throws
    /// the first reason a value cannot be read.
    init(_ cells: some Sequence<DatabaseValue>, reading: Reading) throws {
        self.init()
        for (column, value) in zip(reading.columns, cells) { try column.read(value, &self) }
    }

    /// Decodes a row and gives it to `body`, or, when it does not decode, names it to
    /// `undecodable`: what every backend's `forEachRow` does with each row.
    package static func deliver(
        _ cells: some Collection<DatabaseValue>, reading: Reading,
        undecodable: (UndecodableRow) throws -> Void, _ body: (StoredRow) throws -> Void
    ) throws {
        let decoded: StoredRow
        do {
            decoded = try StoredRow(cells, reading: reading)
        } catch {
            try undecodable(StoredRow.undecodable(cells, reading: reading, error: error))
            return
        }
        try body(decoded)
    }

    /// What the sink's acknowledgement says of a row read with `Reading.acknowledgement`. A row
    /// whose status does not decode (another program's) counts as failed, never as a success;
    /// its identity must decode, or the sink cannot say which job it is.
    package static func acknowledgement(_ cells: some Sequence<DatabaseValue>) throws -> StoredJob {
        let (stored, unreadable) = bestEffort(cells, reading: .acknowledgement)
        if let column = ["job", "fingerprint"].first(where: unreadable.contains) {
            throw UndecodableRow(batch: stored.batch, job: stored.job, reason: "its \(column) is not a number: the sink cannot say which job it is")
        }
        return stored.acknowledgement
    }

    /// As much of the row as decodes, for the counts that must take every row (a batch's
    /// tally, the sink's acknowledgements): a field whose value does not decode keeps its
    /// default, and a status this build cannot read counts as failed, never as a success.
    /// Returns the columns that did not decode.
    package static func bestEffort(_ cells: some Sequence<DatabaseValue>, reading: Reading) -> (row: StoredRow, unreadable: Set<String>) {
        var decoded = StoredRow()
        var unreadable: Set<String> = []
        for (column, value) in zip(reading.columns, cells) {
            do { try column.read(value, &decoded) } catch { unreadable.insert(column.name) }
        }
        if unreadable.contains("status") { decoded.status = .failed }
        return (decoded, unreadable)
    }

    /// Names a row that would not decode, by its batch and job as well as they read.
    static func undecodable(_ cells: some Sequence<DatabaseValue>, reading: Reading, error: any Error) -> UndecodableRow {
        var named = StoredRow()
        named.batch = "(unreadable)"
        named.job = -1
        for (column, value) in zip(reading.columns, cells) where column.name == "batch" || column.name == "job" {
            try? column.read(value, &named)
        }
        return UndecodableRow(batch: named.batch, job: named.job, reason: "\(error)")
    }
}

/// A row another program changed, and why it is left out.
public struct UndecodableRow: Sendable, Error, CustomStringConvertible {
    public var batch: String
    public var job: Int
    public var reason: String

    package init(batch: String, job: Int, reason: String) {
        self.batch = batch
        self.job = job
        self.reason = reason
    }

    public var description: String { "batch \(batch) job \(job): \(reason)".printable }

    /// Why a value is refused, as an error: its text is the reason.
    struct Reason: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A column's stored value as a field's type, or the reason it is not one.
enum StoredValue {
    /// SQLite's name for the value's storage, as `typeof` gives it.
    static func type(of value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "null"
        case .int64: "integer"
        case .double: "real"
        case .string: "text"
        case .blob: "blob"
        }
    }

    static func text(_ value: DatabaseValue, _ column: String) throws -> String {
        guard case .string(let text) = value.storage else { throw UndecodableRow.Reason("\(column) holds \(type(of: value)), not text") }
        return text
    }

    static func optionalText(_ value: DatabaseValue, _ column: String) throws -> String? {
        value.isNull ? nil : try text(value, column)
    }

    static func integer(_ value: DatabaseValue, _ column: String) throws -> Int {
        guard case .int64(let number) = value.storage, let integer = Int(exactly: number) else {
            throw UndecodableRow.Reason("\(column) holds \(type(of: value)), not a number")
        }
        return integer
    }

    static func optionalInteger(_ value: DatabaseValue, _ column: String) throws -> Int? {
        value.isNull ? nil : try integer(value, column)
    }

    /// A count no run stores negative.
    static func count(_ value: DatabaseValue, _ column: String) throws -> Int {
        let number = try integer(value, column)
        guard number >= 0 else { throw UndecodableRow.Reason("\(column) holds \(number), not a count") }
        return number
    }

    static func size(_ value: DatabaseValue, _ column: String) throws -> Int {
        let number = try integer(value, column)
        guard number >= 0 else { throw UndecodableRow.Reason("\(column) holds \(number), not a size") }
        return number
    }

    static func real(_ value: DatabaseValue, _ column: String) throws -> Double {
        switch value.storage {
        case .double(let number): return number
        case .int64(let number): return Double(number)
        default: throw UndecodableRow.Reason("\(column) holds \(type(of: value)), not a number")
        }
    }

    /// A job's time: out of range, it would make a chart's axis infinite or a histogram trap.
    static func time(_ value: DatabaseValue, _ column: String) throws -> Double {
        let seconds = try real(value, column)
        guard StoredRow.plausibleSeconds.contains(seconds) else {
            throw UndecodableRow.Reason("\(column) holds \(seconds), not a time from 0 to 1e9")
        }
        return seconds
    }

    static func storeTime(_ value: DatabaseValue, _ column: String) throws -> Double {
        let seconds = try real(value, column)
        guard StoredRow.plausibleStoredAt.contains(seconds) else {
            throw UndecodableRow.Reason("\(column) holds \(seconds), not a time since 1970")
        }
        return seconds
    }

    /// A kind or status this build must know to read the row at all.
    static func known<Value: RawRepresentable<String>>(_ value: DatabaseValue, _ column: String) throws -> Value {
        let text = try? text(value, column)
        guard let text, let known = Value(rawValue: text) else {
            throw UndecodableRow.Reason("\(column) '\(text ?? (value.isNull ? "NULL" : type(of: value)))' is not one this build knows")
        }
        return known
    }

    // The neutral values: what these fields take where another program stored something else.

    /// A verdict or an ending this build does not know is none.
    static func lenientKnown<Value: RawRepresentable<String>>(_ value: DatabaseValue) -> Value? {
        guard case .string(let text) = value.storage else { return nil }
        return Value(rawValue: text)
    }

    /// A batch or a source that is not text is an empty name.
    static func lenientText(_ value: DatabaseValue) -> String {
        guard case .string(let text) = value.storage else { return "" }
        return text
    }

    /// A size the tables only sum, unreadable or negative, is none.
    static func lenientSize(_ value: DatabaseValue) -> Int {
        guard case .int64(let number) = value.storage, number >= 0, let size = Int(exactly: number) else { return 0 }
        return size
    }

    static func lenientCount(_ value: DatabaseValue) -> Int { lenientSize(value) }

    /// A CPU time out of range is clamped, as the tables take it; one not a number is none.
    static func lenientTime(_ value: DatabaseValue) -> Double {
        StoredRow.plausibleSeconds.clamping((try? real(value, "")) ?? 0)
    }
}
