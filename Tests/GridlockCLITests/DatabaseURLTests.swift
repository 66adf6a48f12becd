// `--db` as a URL, through the real binary: every command that opens results takes one, a
// build without PostgreSQL says how to get it, and no message shows the password.

import Foundation
import Testing

@Suite("--db URLs")
struct DatabaseURLTests {
    #if !PostgreSQL
    @Test("without the trait, a postgresql:// URL is refused by every reader and writer: the build command, never the password", arguments: [
        ["report", "postgresql://team:hunter2-SECRET@db.example.org/results"],
        ["export", "postgresql://team:hunter2-SECRET@db.example.org/results"],
        ["compare", "postgresql://team:hunter2-SECRET@db.example.org/results", "--baseline", "a", "--batch", "b"],
        ["batch", "--db", "postgresql://team:hunter2-SECRET@db.example.org/results", "--batch", "x", "data/samples/unblockme.txt"],
    ])
    func withoutTrait(arguments: [String]) throws {
        let run = try GridlockBinary.run(arguments)
        #expect(run.status == 1, "\(arguments): \(run.status) \(run.stderr)")
        #expect(run.stderr.contains("built without PostgreSQL"), "\(run.stderr)")
        #expect(run.stderr.contains("--traits PostgreSQL"), "\(run.stderr)")
        #expect(run.stderr.contains("postgresql://team@db.example.org:5432/results"), "\(run.stderr)")
        #expect(!(run.stderr + run.stdout).contains("hunter2"), "\(run.stderr)")
    }
    #endif

    @Test("a URL that cannot name a results database is a usage error, before anything is opened or created")
    func badURLs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("db-url-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try SmallNonsenseTests.refused(["report", "mysql://u@h/d"], "is not one gridlock keeps results in")
        try SmallNonsenseTests.refused(["report", "postgresql://u:hunter2@h/d?sslmode=sometimes"], "sslmode sometimes is not one of")
        try SmallNonsenseTests.refused(["report", "postgresql://u@h/d?port=99999"], "port 99999 is not from 1 to 65535")
        // A reader never creates the file it was told to read.
        let missing = directory.appendingPathComponent("none.sqlite").path
        try SmallNonsenseTests.refused(["export", missing], "no such database")
        try SmallNonsenseTests.refused(["compare", missing, "--baseline", "a", "--batch", "b"], "no such database")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
