// Issue 48, point 7: the reading commands open a results database read-only and check it is
// gridlock's before anything else; `collection add` writes only into a puzzle collection. Every
// file they refuse is byte-identical afterwards, with no journal beside it.

import Foundation
import GRDB
import Testing

@Suite("foreign databases", .serialized)
struct ForeignDatabaseTests {
    /// The file's bytes, and whether a -wal or -shm file stands beside it.
    static func state(_ path: String) throws -> (Data, Bool) {
        let journal = ["-wal", "-shm", "-journal"].contains { FileManager.default.fileExists(atPath: path + $0) }
        return (try Data(contentsOf: URL(fileURLWithPath: path)), journal)
    }

    @Test("report, export, compare and plot refuse another program's tables named results and batches, and leave the file as it was")
    func lookalikeResults() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = directory.appendingPathComponent("other.sqlite").path
        try DatabaseQueue(path: other).write { db in
            try db.execute(sql: "CREATE TABLE results (batch TEXT, job INTEGER); CREATE TABLE batches (id TEXT); INSERT INTO batches VALUES ('x')")
        }
        let before = try Self.state(other)
        for command in [["report", other], ["export", other], ["compare", other, other], ["plot", "cactus", other, "-o", directory.appendingPathComponent("p.svg").path]] {
            let output = try GridlockBinary.run(command)
            #expect(output.status != 0, "\(command)")
            #expect(output.stderr.contains("is another program's database (its tables: batches, results)"), "\(command): \(output.stderr)")
            let after = try Self.state(other)
            #expect(after.0 == before.0 && !after.1, "\(command) changed \(other)")
        }
    }

    @Test("collection add refuses a results database and another program's, leaving each as it was; it adds to a new file")
    func collectionAddRefusesForeign() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = directory.appendingPathComponent("results.sqlite").path
        let batch = try GridlockBinary.run(["batch", "data/samples/unblockme.txt", "--workers", "1", "--db", results])
        #expect(batch.status == 0, "\(batch.stderr)")
        let other = directory.appendingPathComponent("notes.sqlite").path
        try DatabaseQueue(path: other).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        let line = "00 ooooooooooooooooAAoooooooooooooooooo 5"
        for (path, tables) in [(results, "batches, grdb_migrations"), (other, "notes")] {
            let before = try Self.state(path)
            let output = try GridlockBinary.run(["collection", "add", path, line])
            #expect(output.status != 0, "\(path)")
            #expect(output.stderr.contains("is not a puzzle collection (its tables: \(tables)"), "\(output.stderr)")
            #expect(try Self.state(path).0 == before.0, "\(path) changed")
        }
        let fresh = directory.appendingPathComponent("new.sqlite").path
        let added = try GridlockBinary.run(["collection", "add", fresh, line])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try GridlockBinary.run(["collection", "add", fresh, "00 ooooooooooooooooAAooooooooooooBBoooo 5"]).status == 0)
    }

    @Test("a report on a batch's database leaves it byte-identical")
    func reportIsReadOnly() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = directory.appendingPathComponent("results.sqlite").path
        #expect(try GridlockBinary.run(["batch", "data/samples/unblockme.txt", "--workers", "1", "--db", results]).status == 0)
        let before = try Self.state(results)
        for command in [["report", results], ["export", results], ["plot", "cactus", results, "-o", directory.appendingPathComponent("p.svg").path]] {
            #expect(try GridlockBinary.run(command).status == 0, "\(command)")
            #expect(try Self.state(results).0 == before.0, "\(command) changed the database")
        }
    }
}
