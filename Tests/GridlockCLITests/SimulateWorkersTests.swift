// The load generator as real processes: simulated workers take a real batch from a real
// coordinator, and the sink stores every job once, with the right answer and the simulated time.

import Foundation
import Testing

@Suite("simulate-workers", .serialized)
struct SimulateWorkersTests {
    /// Runs a batch of `lines` through a sink, a coordinator and one simulate-workers process.
    static func run(_ lines: [String], simulator: [String], roles: [String] = []) throws -> ClusterHarness {
        let cluster = try ClusterHarness()
        let file = try cluster.write(lines)
        try cluster.startSink(extra: roles)
        let generator = try GridlockBinary.start(["simulate-workers", "--coordinator", cluster.jobs, "--sink", cluster.results] + simulator + cluster.keyFlags(roles) + roles)
        cluster.workers.append(generator)
        try cluster.startCoordinator(file, extra: roles)
        try cluster.finish()
        try GridlockBinary.wait(generator, seconds: 30)
        #expect(generator.terminationStatus == 0)
        return cluster
    }

    @Test("40 simulated workers answer a batch: every job stored once, right, with its simulated time, from several workers")
    func simulatedWorkersCompleteABatch() throws {
        let lines = try ClusterHarness.sample(count: 300, step: 50)
        let cluster = try Self.run(lines, simulator: ["--workers", "40", "--job-seconds", "0.002", "--host", "loadgen"])
        try cluster.expectAllStored(lines)
        let rows = try cluster.rows()
        #expect(rows.values.allSatisfy { ($0["seconds"] as? Double) == 0.002 }, "\(rows[0] ?? [:])")
        let workers = Set(rows.values.compactMap { $0["worker"] as? String })
        #expect(workers.count >= 2 && workers.allSatisfy { $0.hasPrefix("loadgen:") }, "\(workers)")
    }

    @Test("with a shared key, and with times drawn from a stored batch")
    func keyedAndDrawnFromABatch() throws {
        let lines = try ClusterHarness.sample(count: 120, step: 100)
        let first = try Self.run(lines, simulator: ["--workers", "5", "--job-seconds", "0.001"])
        // Five distinct stored times to draw from.
        let timed = try BatchCommandTests.temporaryDirectory().appendingPathComponent("times.sqlite").path
        let stored = try GridlockBinary.run(["batch", first.write(Array(lines.prefix(5)), to: "five.txt"), "--workers", "1", "--db", timed, "--batch", "five"])
        #expect(stored.status == 0, "\(stored.stderr)")
        let samples = Set(try BatchCommandTests.export(timed).values.compactMap { $0["seconds"] as? Double })
        let keyFile = first.directory.appendingPathComponent("cluster.key").path
        #expect(try GridlockBinary.run(["key", keyFile]).status == 0)
        let second = try Self.run(
            lines, simulator: ["--workers", "7", "--times-from", timed, "--times-batch", "five"], roles: ["--key-file", keyFile])
        try second.expectAllStored(lines)
        let drawn = Set(try second.rows().values.compactMap { $0["seconds"] as? Double })
        #expect(!drawn.isEmpty && drawn.isSubset(of: samples), "\(drawn) not drawn from \(samples)")
    }

    @Test("bad flags are refused with what is wrong")
    func refusesBadFlags() throws {
        for (flags, says) in [
            (["--workers", "0"], "--workers must be from 1"),
            (["--job-seconds=-1"], "--job-seconds must be"),
            (["--job-seconds", "1", "--times-from", "x.sqlite"], "not both"),
            (["--times-batch", "b"], "give it too"),
            (["--times-from", "/nonexistent/x.sqlite"], "--times-from /nonexistent/x.sqlite"),
        ] {
            let output = try GridlockBinary.run(["simulate-workers", "--coordinator", "ipc:///nonexistent/j", "--sink", "ipc:///nonexistent/r", "--insecure"] + flags)
            #expect(output.status == 64 && output.stderr.contains(says), "\(flags): \(output.stderr)")
        }
    }
}
