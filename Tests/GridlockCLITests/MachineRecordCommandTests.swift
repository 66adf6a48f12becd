// The machines a batch ran on, recorded by its workers through the sink, and the warnings of
// report and compare when the CPUs differ.

import Foundation
import Testing

@Suite("Machines recorded")
struct MachineRecordCommandTests {
    @Test("a batch records its workers' machine once; report shows it in every format and warns when CPU models differ; so does compare")
    func recordedAndWarned() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("jobs.txt")
        try (try ClusterHarness.sample(count: 20, step: 300).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        for name in ["one", "two"] {
            let batch = try GridlockBinary.run(["batch", file.path, "--workers", "2", "--db", database, "--batch", name])
            #expect(batch.status == 0, "\(batch.stderr)")
            #expect(batch.stdout.contains("measured by") && !batch.stderr.contains("CPU models"), "\(batch.stdout)")
        }
        // Two workers on one host, each batch: one row each, with what /proc says.
        let rows = try NumericReportTests.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(*db.execute("SELECT COUNT(*), COUNT(DISTINCT batch), MIN(threads) >= 1, MIN(memory_bytes) > 0, MIN(length(kernel)) > 0 FROM machines").fetchone())
            """, database: database)
        #expect(rows == "2 2 1 1 1")
        let json = try GridlockBinary.run(["report", database, "--batch", "one", "--format", "json"])
        let machines = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["machines"] as? [[String: Any]])
        #expect(machines.count == 1 && (machines.first?["threads"] as? Int ?? 0) >= 1 && machines.first?["batch"] as? String == "one")
        let csv = try GridlockBinary.run(["report", database, "--format", "csv", "--table", "machines"])
        #expect(csv.stdout.hasPrefix("batch,host,cpu_model,cpu_mhz,cores,threads,smt,governor,turbo,kernel,memory_bytes,load_average,code_path,method"), "\(csv.stdout)")

        // Batch two's workers on another host with another CPU (as a second machine would have said).
        _ = try NumericReportTests.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO machines SELECT batch, 'elsewhere', 'Slower CPU \\x1b[31m', cores, threads, governor, turbo, kernel, memory_bytes, load_average, method, code_path, cpu_mhz, smt FROM machines WHERE batch = 'two'")
            db.commit()
            """, database: database)
        let report = try GridlockBinary.run(["report", database, "--batch", "two"])
        #expect(report.status == 0)
        #expect(report.stderr.contains("ran on 2 CPU models") && report.stderr.contains("Slower CPU") && report.stderr.contains("elsewhere"), "\(report.stderr)")
        // The database's text reaches the terminal escaped.
        #expect(!report.stderr.contains("\u{1B}") && !report.stdout.contains("\u{1B}"))
        #expect(try GridlockBinary.run(["report", database, "--batch", "one"]).stderr.isEmpty)
        let compare = try GridlockBinary.run(["compare", database, "--baseline", "one", "--batch", "two"])
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(compare.stderr.contains("different CPU models"), "\(compare.stderr)")
    }
}
