// The results table's columns, in one list: the check that an opened database has them, the
// sink's insert, every SELECT, the one decoder into StoredRow and `gridlock export` all read
// it, so a column is added in one place (and a migration). A result goes from the worker to
// its row through `bind`, from the row to a StoredRow through `read`, and from that to the
// export through `exported`.

import GRDB
import GridlockWire

package struct ResultColumn: Sendable {
    package enum Affinity: String, Sendable {
        case text = "TEXT"
        case integer = "INTEGER"
        case real = "REAL"
    }

    package let name: String
    package let affinity: Affinity
    package let notNull: Bool
    /// The key in `gridlock export`'s JSON lines.
    let exportName: String
    /// Binds what a result puts in the column, straight from its field: returning the value
    /// (an enum of a string, a number or nothing) copied each string column's text out and
    /// back, a retain and a release apiece, a twelfth of the sink's time on trivial jobs.
    let bind: @Sendable (_ result: JobResult, _ storedAt: Double, _ insert: inout SQLiteInsert) -> Void
    /// Reads the column's stored value into its field, throwing the reason (naming the column)
    /// where another program stored what the field cannot hold (StoredValue).
    let read: @Sendable (_ value: DatabaseValue, _ row: inout StoredRow) throws -> Void
    /// The field's value as `gridlock export` writes it.
    let exported: @Sendable (_ row: StoredRow) -> ExportedValue

    init(
        _ name: String, _ affinity: Affinity, notNull: Bool = true, export: String? = nil,
        read: @escaping @Sendable (_ value: DatabaseValue, _ row: inout StoredRow) throws -> Void,
        exported: @escaping @Sendable (_ row: StoredRow) -> ExportedValue,
        bind: @escaping @Sendable (_ result: JobResult, _ storedAt: Double, _ insert: inout SQLiteInsert) -> Void
    ) {
        self.name = name
        self.affinity = affinity
        self.notNull = notNull
        exportName = export ?? name
        self.read = read
        self.exported = exported
        self.bind = bind
    }
}

extension ResultColumn {
    /// In the table's order, which is the order the insert binds them. Where a field is left at
    /// its default rather than refused (the verdict, the sizes the tables only sum, the CPU
    /// time), the comment on `StoredValue` says why.
    package static let all: [ResultColumn] = [
        ResultColumn("batch", .text, read: { $1.batch = StoredValue.lenientText($0) }, exported: { .text($0.batch) },
                     bind: { result, _, insert in insert.bind(result.batch) }),
        ResultColumn("job", .integer, read: { $1.job = try StoredValue.integer($0, "job") }, exported: { .integer($0.job) },
                     bind: { result, _, insert in insert.bind(result.job) }),
        ResultColumn("kind", .text, read: { $1.kind = try StoredValue.known($0, "kind") }, exported: { .text($0.kind.rawValue) },
                     bind: { result, _, insert in insert.bind(result.kind.rawValue) }),
        ResultColumn("puzzle", .text, read: { $1.puzzle = try StoredValue.text($0, "puzzle") }, exported: { .text($0.puzzle) },
                     bind: { result, _, insert in insert.bind(result.puzzle) }),
        ResultColumn("solver", .text, read: { $1.solver = try StoredValue.text($0, "solver") }, exported: { .text($0.solver) },
                     bind: { result, _, insert in insert.bind(result.solver) }),
        ResultColumn("source", .text, read: { $1.source = StoredValue.lenientText($0) }, exported: { .text($0.source) },
                     bind: { result, _, insert in insert.bind(result.source) }),
        ResultColumn("status", .text, read: { $1.status = try StoredValue.known($0, "status") }, exported: { .text($0.status.rawValue) },
                     bind: { result, _, insert in insert.bind(result.status.rawValue) }),
        ResultColumn("moves", .integer, notNull: false, read: { $1.moves = try StoredValue.optionalInteger($0, "moves") },
                     exported: { .integer($0.moves) }, bind: { result, _, insert in insert.bind(result.moves) }),
        ResultColumn("solution", .text, read: { $1.solution = try StoredValue.text($0, "solution") }, exported: { .text($0.solution) },
                     bind: { result, _, insert in insert.bind(result.solution) }),
        ResultColumn("cluster", .integer, notNull: false, read: { $1.cluster = try StoredValue.optionalInteger($0, "cluster") },
                     exported: { .integer($0.cluster) }, bind: { result, _, insert in insert.bind(result.cluster) }),
        ResultColumn("error", .text, notNull: false, read: { $1.error = try StoredValue.optionalText($0, "error") },
                     exported: { .text($0.error) }, bind: { result, _, insert in insert.bind(result.error) }),
        ResultColumn("attempt", .integer, export: "attempts", read: { $1.attempts = try StoredValue.integer($0, "attempt") },
                     exported: { .integer($0.attempts) }, bind: { result, _, insert in insert.bind(result.attempt) }),
        ResultColumn("worker", .text, read: { $1.worker = try StoredValue.text($0, "worker") }, exported: { .text($0.worker) },
                     bind: { result, _, insert in insert.bind(result.worker.description) }),
        ResultColumn("host", .text, read: { $1.host = try StoredValue.text($0, "host") }, exported: { .text($0.host) },
                     bind: { result, _, insert in insert.bind(result.worker.host) }),
        ResultColumn("examined", .integer, read: { $1.examined = try StoredValue.count($0, "examined") }, exported: { .integer($0.examined) },
                     bind: { result, _, insert in insert.bind(result.examined) }),
        ResultColumn("enqueued", .integer, read: { $1.enqueued = try StoredValue.count($0, "enqueued") }, exported: { .integer($0.enqueued) },
                     bind: { result, _, insert in insert.bind(result.enqueued) }),
        ResultColumn("max_queue", .integer, export: "maxQueue", read: { $1.maxQueue = try StoredValue.count($0, "max_queue") },
                     exported: { .integer($0.maxQueue) }, bind: { result, _, insert in insert.bind(result.maxQueue) }),
        ResultColumn("states", .integer, export: "statesStored", read: { $1.statesStored = try StoredValue.count($0, "states") },
                     exported: { .integer($0.statesStored) }, bind: { result, _, insert in insert.bind(result.statesStored) }),
        ResultColumn("memory_bytes", .integer, export: "memoryBytes", read: { $1.memoryBytes = StoredValue.lenientSize($0) },
                     exported: { .integer($0.memoryBytes) }, bind: { result, _, insert in insert.bind(result.memoryBytes) }),
        ResultColumn("seconds", .real, read: { $1.seconds = try StoredValue.time($0, "seconds") }, exported: { .real($0.seconds) },
                     bind: { result, _, insert in insert.bind(result.seconds) }),
        ResultColumn("cpu_seconds", .real, export: "cpuSeconds", read: { $1.cpuSeconds = StoredValue.lenientTime($0) },
                     exported: { .real($0.cpuSeconds) }, bind: { result, _, insert in insert.bind(result.cpuSeconds) }),
        ResultColumn("peak_rss_bytes", .integer, export: "peakRSSBytes", read: { $1.peakRSSBytes = try StoredValue.size($0, "peak_rss_bytes") },
                     exported: { .integer($0.peakRSSBytes) }, bind: { result, _, insert in insert.bind(result.peakRSSBytes) }),
        ResultColumn("expected_moves", .integer, notNull: false, export: "expectedMoves",
                     read: { $1.expectedMoves = try StoredValue.optionalInteger($0, "expected_moves") },
                     exported: { .integer($0.expectedMoves) }, bind: { result, _, insert in insert.bind(result.expectedMoves) }),
        ResultColumn("stored_at", .real, export: "storedAt", read: { $1.storedAt = try StoredValue.storeTime($0, "stored_at") },
                     exported: { .real($0.storedAt) }, bind: { _, storedAt, insert in insert.bind(storedAt) }),
        // Exported as the job's 16 hex digits, as `JobFingerprint` prints.
        ResultColumn("fingerprint", .integer, read: { $1.fingerprint = JobFingerprint(storedValue: Int64(try StoredValue.integer($0, "fingerprint"))) },
                     exported: { .text($0.fingerprint.description) }, bind: { result, _, insert in insert.bind(Int(result.fingerprint.storedValue)) }),
        ResultColumn("termination", .text, notNull: false, read: { $1.termination = StoredValue.lenientKnown($0) },
                     exported: { .text($0.termination?.rawValue) }, bind: { result, _, insert in insert.bind(result.termination?.rawValue) }),
        ResultColumn("verdict", .text, read: { $1.verdict = StoredValue.lenientKnown($0) ?? .unknown }, exported: { .text($0.verdict.rawValue) },
                     bind: { result, _, insert in insert.bind(result.checkedVerdict.rawValue) }),
        ResultColumn("solver_stats", .text, notNull: false, export: "solverStats", read: { $1.solverStats = try StoredValue.optionalText($0, "solver_stats") },
                     exported: { .text($0.solverStats) }, bind: { result, _, insert in insert.bind(result.solverStats) }),
        ResultColumn("worker_idle_rss_bytes", .integer, export: "workerIdleRSSBytes", read: { $1.workerIdleRSSBytes = StoredValue.lenientSize($0) },
                     exported: { .integer($0.workerIdleRSSBytes) }, bind: { result, _, insert in insert.bind(result.workerIdleRSSBytes) }),
        ResultColumn("repetition", .integer, read: { $1.repetition = StoredValue.lenientCount($0) }, exported: { .integer($0.repetition) },
                     bind: { result, _, insert in insert.bind(result.repetition) }),
    ]

    /// The column of this name; a name not in the list is a programming error.
    static func named(_ name: String) -> ResultColumn {
        guard let column = all.first(where: { $0.name == name }) else { fatalError("no results column \(name)") }
        return column
    }

    /// A new (batch, job) is inserted; the same job again (same fingerprint) is ignored; a
    /// changed job (another fingerprint) replaces the row.
    static let insertSQL = upsertSQL(rows: 1, placeholder: { _ in "?" })

    /// The same for `rows` rows in one statement, with the dialect's placeholder for the nth
    /// value (`?` in SQLite, `$n` in PostgreSQL).
    package static func upsertSQL(rows: Int, placeholder: (Int) -> String) -> String {
        let tuples = (0..<rows).map { row in
            "(" + (1...all.count).map { placeholder(row * all.count + $0) }.joined(separator: ", ") + ")"
        }
        return """
            INSERT INTO results (\(all.map(\.name).joined(separator: ", "))) VALUES \(tuples.joined(separator: ", "))
            ON CONFLICT (batch, job) DO UPDATE SET \(all.dropFirst(2).map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", "))
            WHERE results.fingerprint != excluded.fingerprint
            """
    }

    /// The columns' binders alone: iterating `all` copied each column, strings and closure,
    /// for every column of every row (a third of the sink's insert).
    private static let binders = all.map(\.bind)

    /// Binds one result's row to the insert.
    static func bind(_ result: JobResult, storedAt: Double, to insert: inout SQLiteInsert) {
        for bind in binders { bind(result, storedAt, &insert) }
    }

    /// Each result's row as SQLite would store it, value for value in the table's order: the
    /// binders' own values, read back through a SELECT of them in an in-memory database. A
    /// store that is not SQLite (PostgreSQL) writes these, so both hold exactly the same row
    /// and no column says its value twice.
    package static func storedValues(of results: [JobResult], storedAt: Double) throws -> [[DatabaseValue]] {
        try DatabaseQueue().inDatabase { db in
            var select = try SQLiteInsert(db, sql: "SELECT \((1...all.count).map { "?\($0)" }.joined(separator: ", "))")
            return try results.map { result in
                bind(result, storedAt: storedAt, to: &select)
                return try select.select()
            }
        }
    }

    /// Where an opened database's `results` table differs from this list, in words; nil when
    /// it matches (a database from another build, or not Gridlock's, is refused at open).
    static func mismatch(in db: Database) throws -> String? {
        let found = try Row.fetchAll(db, sql: "PRAGMA table_info(results)").map { row -> String in
            let name: String = row["name"], type: String = row["type"], notNull: Bool = row["notnull"]
            return "\(name) \(type)\(notNull ? " NOT NULL" : "")"
        }
        let expected = all.map { "\($0.name) \($0.affinity.rawValue)\($0.notNull ? " NOT NULL" : "")" }
        guard found != expected else { return nil }
        let first = zip(found, expected).first { $0 != $1 }
        return first.map { "has column '\($0.0)' where this build expects '\($0.1)'" }
            ?? "has \(found.count) columns where this build expects \(expected.count)"
    }
}

/// A value of an exported row.
enum ExportedValue: Encodable, Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    static func integer(_ number: Int?) -> ExportedValue { number.map { .integer(Int64($0)) } ?? .null }
    static func text(_ text: String?) -> ExportedValue { text.map { .text($0) } ?? .null }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        case .null: try container.encodeNil()
        }
    }

    /// As a CSV field: numbers as they read back, texts quoted where they must be, null empty.
    var csvField: String {
        switch self {
        case .integer(let number): String(number)
        case .real(let number): number.isFinite ? "\(number)" : ""
        case .text(let text): CSVField.quoted(text)
        case .null: ""
        }
    }
}

/// `gridlock export`'s row: every column under its export name, in the table's order.
extension StoredRow: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: ExportKey.self)
        for column in ResultColumn.all { try container.encode(column.exported(self), forKey: ExportKey(stringValue: column.exportName)) }
    }

    /// The CSV header: the export's keys, in the table's order.
    public static var csvHeader: String { ResultColumn.all.map(\.exportName).joined(separator: ",") }

    /// The row as a CSV record (control characters escaped, so a record never splits).
    public var csvRecord: String { ResultColumn.all.map { $0.exported(self).csvField }.joined(separator: ",") }

    struct ExportKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, its quotes
/// doubled; control characters escaped first, so a record is always one line.
public enum CSVField {
    public static func quoted(_ text: String) -> String {
        let value = text.printable
        return value.contains(",") || value.contains("\"") ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}
