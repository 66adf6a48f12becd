// Resuming a batch by name: exactly the jobs whose fingerprint is not stored are solved, and an
// input that changed since is refused (or, with --resume-changed, only its changes are solved).

import Foundation
import Testing

@Suite("Resuming a batch", .serialized)
struct ResumeTests {
    struct Batch {
        let directory: URL
        let file: URL
        let database: String

        init(lines: [String]) throws {
            directory = try BatchCommandTests.temporaryDirectory()
            file = directory.appendingPathComponent("puzzles.txt")
            database = directory.appendingPathComponent("results.sqlite").path
            try write(lines)
        }

        func write(_ lines: [String]) throws {
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        }

        func run(_ extra: [String] = []) throws -> CommandOutput {
            try GridlockBinary.run(["batch", file.path, "--workers", "1", "--db", database, "--batch", "again"] + extra)
        }
    }

    /// A batch of 30 stored, then its lines 7 and 21 replaced by other puzzles.
    static func editedBatch() throws -> (batch: Batch, lines: [String], before: [Int: [String: Any]]) {
        var lines = try ClusterHarness.sample(count: 30, start: 100, step: 13)
        let batch = try Batch(lines: lines)
        #expect(try batch.run().status == 0)
        let before = try BatchCommandTests.export(batch.database)
        lines[6] = try ClusterHarness.sample(count: 1, start: 5_000)[0]
        lines[20] = try ClusterHarness.sample(count: 1, start: 6_000)[0]
        try batch.write(lines)
        return (batch, lines, before)
    }

    @Test("the same name with an edited file refuses, naming the first line that differs, and stores nothing")
    func editedInputIsRefused() throws {
        let (batch, _, before) = try Self.editedBatch()
        let output = try batch.run()
        #expect(output.status != 0)
        #expect(output.stderr.contains("puzzles.txt:7 differs"), "\(output.stderr)")
        #expect(output.stderr.contains("--resume-changed"), "\(output.stderr)")
        let after = try BatchCommandTests.export(batch.database)
        #expect(after.count == before.count)
        #expect(after[6]?["puzzle"] as? String == before[6]?["puzzle"] as? String)
    }

    @Test("--resume-changed solves only the changed lines and keeps every other row as it was")
    func resumeChangedSolvesOnlyChanges() throws {
        let (batch, lines, before) = try Self.editedBatch()
        let output = try batch.run(["--resume-changed"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("28 stored before"), "\(output.stderr)")
        #expect(output.stderr.contains("2 changed"), "\(output.stderr)")
        let after = try BatchCommandTests.export(batch.database)
        #expect(after.count == 30)
        for job in 0..<30 {
            if job == 6 || job == 20 {
                #expect(after[job]?["puzzle"] as? String == lines[job])
                #expect(after[job]?["moves"] as? Int == Int(lines[job].split(separator: " ")[0]))
                #expect(after[job]?["fingerprint"] as? String != before[job]?["fingerprint"] as? String)
            } else {
                // Untouched: the same row, stored at the same moment by the same worker.
                #expect(after[job]?["worker"] as? String == before[job]?["worker"] as? String, "job \(job)")
                #expect(after[job]?["fingerprint"] as? String == before[job]?["fingerprint"] as? String, "job \(job)")
            }
        }
    }

    @Test("the same input again solves nothing; a shorter input is refused, or trimmed with --resume-changed")
    func unchangedAndShorterInputs() throws {
        var lines = try ClusterHarness.sample(count: 20, start: 300, step: 11)
        let batch = try Batch(lines: lines)
        #expect(try batch.run().status == 0)
        let again = try batch.run()
        #expect(again.status == 0)
        #expect(again.stderr.contains("20 of 20 jobs stored"), "\(again.stderr)")
        #expect(again.stderr.contains("20 stored before"), "\(again.stderr)")
        lines.removeLast(3)
        try batch.write(lines)
        let shorter = try batch.run()
        #expect(shorter.status != 0)
        #expect(shorter.stderr.contains("got shorter"), "\(shorter.stderr)")
        #expect(try BatchCommandTests.export(batch.database).count == 20)
        #expect(try batch.run(["--resume-changed"]).status == 0)
        #expect(try BatchCommandTests.export(batch.database).count == 17)
    }
}
