// The results table's columns, in one list: the check that an opened database has them, the
// sink's insert and `gridlock export` all read it, so a column is added in one place (and a
// migration). A result goes from the worker to its row through `value`, and from the row to
// the export through `exported`.

import GRDB
import GridlockWire

struct ResultColumn: Sendable {
    enum Affinity: String, Sendable {
        case text = "TEXT"
        case integer = "INTEGER"
        case real = "REAL"
    }

    let name: String
    let affinity: Affinity
    let notNull: Bool
    /// The key in `gridlock export`'s JSON lines.
    let exportName: String
    /// Binds what a result puts in the column, straight from its field: returning the value
    /// (an enum of a string, a number or nothing) copied each string column's text out and
    /// back, a retain and a release apiece, a twelfth of the sink's time on trivial jobs.
    let bind: @Sendable (_ result: JobResult, _ storedAt: Double, _ insert: inout SQLiteInsert) -> Void
    /// The export's value, when it is not the stored one.
    var exported: (@Sendable (DatabaseValue) -> ExportedValue)?

    init(
        _ name: String, _ affinity: Affinity, notNull: Bool = true, export: String? = nil,
        exported: (@Sendable (DatabaseValue) -> ExportedValue)? = nil,
        _ bind: @escaping @Sendable (_ result: JobResult, _ storedAt: Double, _ insert: inout SQLiteInsert) -> Void
    ) {
        self.name = name
        self.affinity = affinity
        self.notNull = notNull
        exportName = export ?? name
        self.exported = exported
        self.bind = bind
    }
}

extension ResultColumn {
    /// In the table's order, which is the order the insert binds them.
    static let all: [ResultColumn] = [
        ResultColumn("batch", .text) { result, _, insert in insert.bind(result.batch) },
        ResultColumn("job", .integer) { result, _, insert in insert.bind(result.job) },
        ResultColumn("kind", .text) { result, _, insert in insert.bind(result.kind.rawValue) },
        ResultColumn("puzzle", .text) { result, _, insert in insert.bind(result.puzzle) },
        ResultColumn("solver", .text) { result, _, insert in insert.bind(result.solver) },
        ResultColumn("source", .text) { result, _, insert in insert.bind(result.source) },
        ResultColumn("status", .text) { result, _, insert in insert.bind(result.status.rawValue) },
        ResultColumn("moves", .integer, notNull: false) { result, _, insert in insert.bind(result.moves) },
        ResultColumn("solution", .text) { result, _, insert in insert.bind(result.solution) },
        ResultColumn("cluster", .integer, notNull: false) { result, _, insert in insert.bind(result.cluster) },
        ResultColumn("error", .text, notNull: false) { result, _, insert in insert.bind(result.error) },
        ResultColumn("attempt", .integer, export: "attempts") { result, _, insert in insert.bind(result.attempt) },
        ResultColumn("worker", .text) { result, _, insert in insert.bind(result.worker.description) },
        ResultColumn("host", .text) { result, _, insert in insert.bind(result.worker.host) },
        ResultColumn("examined", .integer) { result, _, insert in insert.bind(result.examined) },
        ResultColumn("enqueued", .integer) { result, _, insert in insert.bind(result.enqueued) },
        ResultColumn("max_queue", .integer, export: "maxQueue") { result, _, insert in insert.bind(result.maxQueue) },
        ResultColumn("states", .integer, export: "statesStored") { result, _, insert in insert.bind(result.statesStored) },
        ResultColumn("memory_bytes", .integer, export: "memoryBytes") { result, _, insert in insert.bind(result.memoryBytes) },
        ResultColumn("seconds", .real) { result, _, insert in insert.bind(result.seconds) },
        ResultColumn("cpu_seconds", .real, export: "cpuSeconds") { result, _, insert in insert.bind(result.cpuSeconds) },
        ResultColumn("peak_rss_bytes", .integer, export: "peakRSSBytes") { result, _, insert in insert.bind(result.peakRSSBytes) },
        ResultColumn("expected_moves", .integer, notNull: false, export: "expectedMoves") { result, _, insert in insert.bind(result.expectedMoves) },
        ResultColumn("stored_at", .real, export: "storedAt") { _, storedAt, insert in insert.bind(storedAt) },
        // Exported as the job's 16 hex digits, as `JobFingerprint` prints.
        ResultColumn("fingerprint", .integer, exported: { .text(JobFingerprint(storedValue: Int64.fromDatabaseValue($0) ?? 0).description) }) { result, _, insert in
            insert.bind(Int(result.fingerprint.storedValue))
        },
        ResultColumn("termination", .text, notNull: false) { result, _, insert in insert.bind(result.termination?.rawValue) },
        ResultColumn("verdict", .text) { result, _, insert in insert.bind(result.checkedVerdict.rawValue) },
        ResultColumn("solver_stats", .text, notNull: false, export: "solverStats") { result, _, insert in insert.bind(result.solverStats) },
        ResultColumn("worker_idle_rss_bytes", .integer, export: "workerIdleRSSBytes") { result, _, insert in insert.bind(result.workerIdleRSSBytes) },
        ResultColumn("repetition", .integer) { result, _, insert in insert.bind(result.repetition) },
    ]

    /// A new (batch, job) is inserted; the same job again (same fingerprint) is ignored; a
    /// changed job (another fingerprint) replaces the row.
    static let insertSQL = """
        INSERT INTO results (\(all.map(\.name).joined(separator: ", "))) VALUES (\(all.map { _ in "?" }.joined(separator: ", ")))
        ON CONFLICT (batch, job) DO UPDATE SET \(all.dropFirst(2).map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", "))
        WHERE results.fingerprint != excluded.fingerprint
        """

    /// The columns' binders alone: iterating `all` copied each column, strings and closure,
    /// for every column of every row (a third of the sink's insert).
    private static let binders = all.map(\.bind)

    /// Binds one result's row to the insert.
    static func bind(_ result: JobResult, storedAt: Double, to insert: inout SQLiteInsert) {
        for bind in binders { bind(result, storedAt, &insert) }
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

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob, .null: self = .null
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        case .null: try container.encodeNil()
        }
    }
}

/// One exported row: the columns' export names and values.
public struct ExportedRow: Encodable, Sendable {
    let values: [(String, ExportedValue)]

    init(_ row: Row) {
        values = ResultColumn.all.map { column in
            let stored: DatabaseValue = row[column.name]
            return (column.exportName, column.exported?(stored) ?? ExportedValue(stored))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in values { try container.encode(value, forKey: Key(stringValue: name)) }
    }

    /// The CSV header: the export's keys, in the table's order.
    public static var csvHeader: String { ResultColumn.all.map(\.exportName).joined(separator: ",") }

    /// The row as a CSV record: numbers as they read back, texts quoted where they must be
    /// (control characters escaped, so a record never splits), null as an empty field.
    public var csvRecord: String {
        values.map { _, value -> String in
            switch value {
            case .integer(let number): String(number)
            case .real(let number): number.isFinite ? "\(number)" : ""
            case .text(let text): CSVField.quoted(text)
            case .null: ""
            }
        }.joined(separator: ",")
    }

    struct Key: CodingKey {
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
