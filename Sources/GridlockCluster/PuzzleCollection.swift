// A puzzle collection: one SQLite file of puzzles with their analysis, for designers who
// generate, grade and pick puzzles (the Unblocker guide's "database of puzzles and solutions").
//
//   puzzles(id PK, kind, text UNIQUE (kind, text), label, source, reachable, goal_states,
//           useful, dead_ends, best_moves, solutions, hardest, analysis (JSON), added_at)
//
// A puzzle added twice is kept once. Export writes the stored text (one line per puzzle) or the
// kind's JSON, so the collection can feed `gridlock solve` and `gridlock batch` again.

import Foundation
import GRDB
import GridlockClusterBase
import GridlockCore

public final class PuzzleCollection: Sendable {
    let queue: DatabaseQueue

    /// Opens the collection at `path`; `readOnly` (to list or export) neither creates the file
    /// nor changes it: a typo must not leave an empty collection behind.
    public init(path: String, readOnly: Bool = false) throws {
        if readOnly {
            guard FileManager.default.fileExists(atPath: path) else { throw ClusterError("no such collection: \(path)") }
            var configuration = Configuration()
            configuration.readonly = true
            let tables: [String]
            do {
                queue = try DatabaseQueue(path: path, configuration: configuration)
                tables = try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw ClusterError("\(path) is not a SQLite database, so not a puzzle collection")
            }
            guard tables.contains("puzzles") else {
                throw ClusterError("\(path) is not a puzzle collection (no puzzles table): is it the file `gridlock collection add` wrote?")
            }
            return
        }
        queue = try DatabaseQueue(path: path)
        // Another program's database (or a results database) is refused before anything is
        // written to it: `collection add` wrote its table into any SQLite file and exited 0.
        let tables: [String]
        do {
            tables = try queue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw ClusterError("\(path) is not a SQLite database, so not a puzzle collection: name another file")
        }
        guard tables.isEmpty || Set(tables) == ["puzzles", "grdb_migrations"] else {
            throw ClusterError("\(path) is not a puzzle collection (its tables: \(tables.sorted().prefix(6).joined(separator: ", "))): name a collection, or a new file")
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE puzzles (
                    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, text TEXT NOT NULL, label TEXT, source TEXT NOT NULL,
                    reachable INTEGER NOT NULL, goal_states INTEGER NOT NULL, useful INTEGER NOT NULL,
                    dead_ends INTEGER NOT NULL, best_moves INTEGER, solutions TEXT, hardest INTEGER,
                    analysis TEXT NOT NULL, added_at REAL NOT NULL, UNIQUE (kind, text));
                """)
        }
        try migrator.migrate(queue)
    }

    public struct Entry: Sendable, Codable {
        public var id: Int
        public var kind: String
        public var text: String
        public var label: String?
        public var source: String
        public var analysis: StateSpaceAnalysis
    }

    /// Adds a puzzle with its analysis; false when the collection already holds it.
    @discardableResult
    public func add(kind: PuzzleKind, text: String, label: String?, source: String, analysis: StateSpaceAnalysis) throws -> Bool {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO puzzles (kind, text, label, source, reachable, goal_states, useful, dead_ends,
                        best_moves, solutions, hardest, analysis, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    kind.rawValue, text, label, source, analysis.reachable, analysis.goalStates, analysis.useful,
                    analysis.deadEnds, analysis.bestMoves, analysis.solutions.map { String($0) }, analysis.hardest,
                    JSONLine.encode(analysis), Date().timeIntervalSince1970,
                ])
            return db.changesCount > 0
        }
    }

    /// The puzzles in the order added, of one kind or all.
    public func entries(kind: PuzzleKind? = nil) throws -> [Entry] {
        try queue.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM puzzles \(kind == nil ? "" : "WHERE kind = ?") ORDER BY id",
                arguments: kind.map { [$0.rawValue] } ?? [])
            return try rows.map { row in
                Entry(
                    id: try row.decode(forColumn: "id"), kind: try row.decode(forColumn: "kind"), text: try row.decode(forColumn: "text"),
                    label: try row.decode(forColumn: "label"), source: try row.decode(forColumn: "source"),
                    analysis: try JSONDecoder().decode(StateSpaceAnalysis.self, from: Data((try row.decode(String.self, forColumn: "analysis")).utf8)))
            }
        }
    }
}
