// One prepared INSERT driven through SQLite's C API: the sink's hot path. GRDB's statement
// arguments box each of a row's 24 values as an existential and look up generic metadata at
// run time; at 10,000 results a second that made the sink cost about 11 µs a row, most of it
// in the Swift runtime, on a core the workers need. Everything else goes through GRDB.

import GRDB
import GRDBSQLite

struct SQLiteInsert: ~Copyable {
    private let connection: OpaquePointer
    private let statement: OpaquePointer
    private var index: Int32 = 0

    /// SQLite copies bound text before the call returns (SQLITE_TRANSIENT, a macro Swift does
    /// not import).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, sql: String) throws {
        connection = db.sqliteConnection!
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        statement = prepared
    }

    deinit {
        sqlite3_finalize(statement)
    }

    mutating func bind(_ value: Int?) {
        index += 1
        if let value { sqlite3_bind_int64(statement, index, Int64(value)) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func bind(_ value: Int64) {
        index += 1
        sqlite3_bind_int64(statement, index, value)
    }

    mutating func bind(_ value: Double) {
        index += 1
        sqlite3_bind_double(statement, index, value)
    }

    mutating func bind(_ value: String?) {
        index += 1
        guard var value else {
            sqlite3_bind_null(statement, index)
            return
        }
        // An empty string's buffer may have no address.
        if value.isEmpty {
            sqlite3_bind_text(statement, index, "", 0, Self.transient)
            return
        }
        value.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(statement, index, $0.baseAddress!, Int32($0.count), Self.transient)
            }
        }
    }

    /// Runs the row bound since the last call; returns how many rows it changed (0 when
    /// `INSERT OR IGNORE` ignored it).
    mutating func run() throws -> Int {
        defer {
            sqlite3_reset(statement)
            index = 0
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
        return Int(sqlite3_changes(connection))
    }
}
