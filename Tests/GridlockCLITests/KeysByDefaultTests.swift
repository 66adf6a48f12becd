// Keys on by default (issue 48, point 1): a separate role given no keys refuses to start and
// prints the commands that fix it; --insecure (or `cluster.insecure = true`) runs it with a
// warning at start, and the batch's record keeps how its wire was protected.

import Foundation
import Testing

@Suite("Keys on by default")
struct KeysByDefaultTests {
    @Test("each role started with no keys exits 64 before binding or opening anything, printing the commands that fix it")
    func rolesRefuseWithoutKeys() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let jobs = "ipc://\(directory.path)/jobs"
        let results = "ipc://\(directory.path)/results"
        let database = directory.appendingPathComponent("r.sqlite").path
        let input = directory.appendingPathComponent("in.txt").path
        try "00 ooooooooooooooooAAoooooooooooooooooo 5\n".write(toFile: input, atomically: true, encoding: .utf8)
        for arguments in [
            ["coordinator", input, "--batch", "b", "--bind", jobs, "--sink", results],
            ["sink", "--bind", results, "--coordinator", jobs, "--db", database],
            ["worker", "--coordinator", jobs, "--sink", results],
            ["worker", "--coordinator", jobs, "--sink", results, "--workers", "2"],
            ["simulate-workers", "--coordinator", jobs, "--sink", results],
        ] {
            let run = try GridlockBinary.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("the \(arguments[0] == "simulate-workers" ? "worker" : arguments[0]) needs keys"), "\(arguments): \(run.stderr)")
            for fix in ["gridlock keys generate cluster-keys", "--keys cluster-keys", "gridlock key cluster.key", "--insecure"] {
                #expect(run.stderr.contains(fix), "\(arguments) names \(fix): \(run.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: database), "the sink made no database")
        #expect(!FileManager.default.fileExists(atPath: "\(directory.path)/jobs"), "the coordinator bound nothing")
    }

    @Test("--insecure beside a key is refused; cluster.insecure takes only true or false; cluster.insecure = true runs with the warning")
    func insecureIsExplicit() throws {
        let cluster = try ClusterHarness()
        let both = try GridlockBinary.run(["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--insecure", "--key-file", cluster.keyFile])
        #expect(both.status == 64 && both.stderr.contains("give one or the other"), "\(both.stderr)")
        let maybe = cluster.directory.appendingPathComponent("maybe.conf").path
        try "cluster.insecure = maybe\n".write(toFile: maybe, atomically: true, encoding: .utf8)
        let refused = try GridlockBinary.run(["worker", "--config", maybe, "--coordinator", cluster.jobs, "--sink", cluster.results])
        #expect(refused.status == 64 && refused.stderr.contains("\(maybe):1: `cluster.insecure` is `true` or `false`, not `maybe`"), "\(refused.stderr)")
        let insecure = cluster.directory.appendingPathComponent("insecure.conf").path
        try "cluster.insecure = true\n".write(toFile: insecure, atomically: true, encoding: .utf8)
        let ran = try GridlockBinary.run([
            "worker", "--config", insecure, "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "1",
        ])
        #expect(ran.status == 0 && ran.stderr.contains("WARNING: --insecure, no keys: any process on this machine can take jobs"), "\(ran.stderr)")
        // Keys in the config win over its cluster.insecure: a config never weakens a role.
        try "cluster.insecure = true\ncluster.key_file = \(cluster.keyFile)\n".write(toFile: insecure, atomically: true, encoding: .utf8)
        let keyed = try GridlockBinary.run([
            "worker", "--config", insecure, "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "1",
        ])
        #expect(keyed.status == 0 && !keyed.stderr.contains("--insecure"), "\(keyed.stderr)")
    }

    @Test("a batch run --insecure says so at each role's start and in its record; a keyed one and `gridlock batch` record their key")
    func theRecordSaysHowTheWireWasProtected() throws {
        let lines = try ClusterHarness.sample(count: 8, step: 300)
        let insecure = try ClusterHarness()
        let logs = ["sink", "coordinator", "worker"].map { insecure.directory.appendingPathComponent("\($0).log") }
        try insecure.startSink(extra: ["--insecure"], errorLog: logs[0])
        try insecure.startCoordinator(try insecure.write(lines), extra: ["--insecure"], errorLog: logs[1])
        try insecure.startWorkers(1, extra: ["--insecure"], errorLog: logs[2])
        try insecure.finish()
        try insecure.expectAllStored(lines)
        for log in logs {
            let said = try String(contentsOf: log, encoding: .utf8)
            #expect(said.contains("WARNING: --insecure, no keys"), "\(log.lastPathComponent): \(said)")
        }
        let report = try GridlockBinary.run(["report", insecure.database])
        #expect(report.status == 0 && report.stdout.contains("wire: INSECURE: no keys (--insecure)"), "\(report.stdout)")
        let batches = try GridlockBinary.run(["report", insecure.database, "--format", "csv", "--table", "batches"])
        #expect(batches.stdout.contains(",insecure"), "\(batches.stdout) \(batches.stderr)")

        let keyed = try ClusterHarness()
        try keyed.startSink()
        try keyed.startCoordinator(try keyed.write(lines))
        try keyed.startWorkers(1)
        try keyed.finish()
        #expect(try GridlockBinary.run(["report", keyed.database]).stdout.contains("wire: a shared cluster key"))

        // GRIDLOCK_KEYS exported (a directory that is not there): batch gives its workers its own
        // --key-file, which the environment does not contradict.
        let database = keyed.directory.appendingPathComponent("batch.sqlite").path
        let batch = try GridlockBinary.run(
            ["batch", try keyed.write(lines, to: "b.txt"), "--workers", "1", "--db", database], environment: ["GRIDLOCK_KEYS": "/nonexistent/keys"])
        #expect(batch.status == 0 && !batch.stderr.contains("--insecure"), "\(batch.stderr)")
        #expect(try GridlockBinary.run(["report", database]).stdout.contains("wire: a shared cluster key"))
    }
}
