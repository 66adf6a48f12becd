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
    /// The row's text, copied here and bound in place (SQLITE_STATIC) until the row has run:
    /// SQLite's own copy of each of a row's texts was a malloc and a free apiece. A text that
    /// does not fit gets its own buffer, freed with the row.
    private let arena: UnsafeMutableRawBufferPointer
    private var used = 0
    private var oversized: [UnsafeMutableRawBufferPointer] = []
    private static let arenaBytes = 64 << 10

    /// SQLite reads bound text in place, until the statement is reset (SQLITE_STATIC, a macro
    /// Swift does not import).
    private static let inPlace = unsafeBitCast(0, to: sqlite3_destructor_type.self)

    init(_ db: Database, sql: String) throws {
        connection = db.sqliteConnection!
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        statement = prepared
        arena = .allocate(byteCount: Self.arenaBytes, alignment: 16)
    }

    deinit {
        sqlite3_finalize(statement)
        arena.deallocate()
        for buffer in oversized { buffer.deallocate() }
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

    mutating func bind(_ value: Int) {
        index += 1
        sqlite3_bind_int64(statement, index, Int64(value))
    }

    mutating func bind(_ value: String?) {
        guard let value else {
            index += 1
            sqlite3_bind_null(statement, index)
            return
        }
        bind(value)
    }

    /// Text read in place from the caller's string (a native string's bytes are contiguous),
    /// not from a copy of it.
    mutating func bind(_ value: String) {
        index += 1
        var bound = value.utf8.withContiguousStorageIfAvailable { copyIntoRow(UnsafeRawBufferPointer($0)) }
        if bound == nil {
            var copy = value
            bound = copy.withUTF8 { copyIntoRow(UnsafeRawBufferPointer($0)) }
        }
        sqlite3_bind_text(statement, index, bound!.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bound!.count), Self.inPlace)
    }

    /// `bytes` copied into the row's arena (or a buffer of their own), where they stay until
    /// the row has run.
    private mutating func copyIntoRow(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        // At least a byte: an empty text still needs an address.
        let count = max(1, bytes.count)
        let target: UnsafeMutableRawBufferPointer
        if used + count <= arena.count {
            target = UnsafeMutableRawBufferPointer(rebasing: arena[used..<(used + count)])
            used += count
        } else {
            target = .allocate(byteCount: count, alignment: 1)
            oversized.append(target)
        }
        target.copyMemory(from: bytes)
        return UnsafeMutableRawBufferPointer(rebasing: target[0..<bytes.count])
    }

    /// Runs the row bound since the last call; returns how many rows it changed (0 when
    /// `INSERT OR IGNORE` ignored it).
    mutating func run() throws -> Int {
        defer { reset() }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
        return Int(sqlite3_changes(connection))
    }

    /// Runs a SELECT of the bound values and returns its one row's values, as SQLite holds
    /// them: what the row bound since the last call would store (ResultColumn.storedValues).
    mutating func select() throws -> [DatabaseValue] {
        defer { reset() }
        let code = sqlite3_step(statement)
        guard code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
        return (0..<sqlite3_column_count(statement)).map { column in
            // Text by its length: read as a C string (GRDB's way), it would end at a NUL.
            guard sqlite3_column_type(statement, column) == SQLITE_TEXT, let text = sqlite3_column_text(statement, column) else {
                return DatabaseValue(sqliteStatement: statement, index: column)
            }
            return String(decoding: UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self).databaseValue
        }
    }

    private mutating func reset() {
        sqlite3_reset(statement)
        index = 0
        // Reset: SQLite holds no pointer into the row's text now.
        used = 0
        for buffer in oversized { buffer.deallocate() }
        oversized.removeAll(keepingCapacity: true)
    }
}
