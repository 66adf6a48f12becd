// PostgreSQL's values as SQLite's, and back: the store reads rows through the one decoder
// (StoredRow, StoredValue), which takes SQLite's values, and writes the values SQLite binds.

#if PostgreSQL
import Foundation
import GRDB
import NIOCore
import PostgresNIO

extension DatabaseValue {
    /// A cell as SQLite would hold it: integers as 64-bit integers, floating point as doubles,
    /// text as text, NULL as NULL. Anything else (or a value that fails to decode) is a blob,
    /// which every decoder refuses, naming the column: never NULL, which an optional field
    /// would take for "none".
    init(cell: PostgresCell) {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8:
            if let number = try? cell.decode(Int64.self) {
                self = number.databaseValue
                return
            }
        case .float4, .float8:
            if let number = try? cell.decode(Double.self) {
                self = number.databaseValue
                return
            }
        case .text, .varchar, .bpchar, .name:
            if let text = try? cell.decode(String.self) {
                self = text.databaseValue
                return
            }
        default: break
        }
        self = Data(cell.bytes.map { Array($0.readableBytesView) } ?? []).databaseValue
    }
}

extension PostgresBindings {
    /// Binds a value SQLite would store. PostgreSQL's text cannot hold U+0000 (SQLite's can):
    /// a NUL in a worker's error text would fail the whole group, and stop the sink, so it
    /// is stored as U+FFFD, the replacement character.
    mutating func append(cell: DatabaseValue) {
        switch cell.storage {
        case .null: appendNull()
        case .int64(let number): append(number)
        case .double(let number): append(number)
        case .string(let text): append(Self.storable(text))
        case .blob(let data): append(ByteBuffer(bytes: data))
        }
    }

    /// A text as PostgreSQL stores it: each NUL as U+FFFD.
    static func storable(_ text: String) -> String {
        text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }
}
#endif
