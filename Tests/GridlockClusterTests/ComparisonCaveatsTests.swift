// What puts a `compare` verdict in doubt, from two batches' records: each caveat found where it
// holds, and not where it does not.

import Testing
@testable import GridlockCluster
import GridlockCore
import GridlockWire

@Suite struct ComparisonCaveatsTests {
    static func side(
        _ role: String, cores: Int = 2, load: (Double, Double?) = (0.3, 1.5), codePath: String = "portable", cpuLimit: Double? = 1,
        command: String = "./ext", version: String? = "ext 1", spread: [Double] = []
    ) -> ComparisonCaveat.Side {
        var batch = BatchRecord(
            batch: role, started: "", host: "h", cores: cores, configuration: "release", revision: "r", solvers: "bfs@1", jobs: 4,
            limits: JobLimits(cpuSeconds: cpuLimit), wallLimitSeconds: nil)
        batch.recipe = BatchRecipe(
            options: [], files: ["/a"], outsideSolvers: [OutsideSolverRecord(kind: "rushhour", name: "ext", command: command, serving: false, version: version)],
            workers: 2, pinning: nil, paired: false, repeats: 2, loadAtStart: load.0, loadAtEnd: load.1)
        let machine = MachineRecord(
            host: "h", cpuModel: "cpu", cores: cores, threads: cores, governor: nil, turbo: nil, kernel: "k", memoryBytes: 1 << 30, loadAverage: load.0,
            method: "m", codePath: codePath)
        var runs = RunSpread()
        for (index, factor) in spread.enumerated() {
            runs.add(StoredRow(kind: .rushhour, puzzle: "p\(index)", solver: "bfs", status: .solved, seconds: 1))
            runs.add(StoredRow(kind: .rushhour, puzzle: "p\(index)", solver: "bfs", status: .solved, seconds: factor))
        }
        return ComparisonCaveat.Side(role: role, batch: batch, machines: [machine], spread: runs)
    }

    static func reasons(_ baseline: ComparisonCaveat.Side, _ new: ComparisonCaveat.Side) -> [ComparisonCaveat.Reason] {
        ComparisonCaveat.find(baseline, new, threshold: 0.05).map(\.reason)
    }

    @Test("two like batches: no caveat")
    func alike() {
        #expect(Self.reasons(Self.side("baseline", spread: [1.01, 0.99, 1.02]), Self.side("new batch", spread: [1.0, 1.03])).isEmpty)
    }

    @Test("a load past the hardware threads by a whole process, at either batch's start or end, or on a worker's machine as it started")
    func load() {
        #expect(Self.reasons(Self.side("baseline", load: (3.5, 1)), Self.side("new batch")) == [.load])
        #expect(Self.reasons(Self.side("baseline"), Self.side("new batch", load: (0.1, 8.7))) == [.load])
        // A batch's own coordinator and sink beside a worker per core (2.9 on 2) is not a load;
        // no end recorded is none.
        #expect(Self.reasons(Self.side("baseline", load: (2.9, nil)), Self.side("new batch", load: (1, 3))).isEmpty)
        let details = ComparisonCaveat.find(Self.side("baseline"), Self.side("new batch", load: (0.1, 8.7)), threshold: 0.05).map(\.detail)
        #expect(details == ["new batch: load 8.70 at end on 2 hardware threads"])
        // The host's threads count, not the CPUs the batch's process was given (a job allocation's).
        var allocated = Self.side("new batch", load: (0.1, 8.7))
        allocated.machines[0].threads = 16
        #expect(Self.reasons(Self.side("baseline"), allocated).isEmpty)
        var busy = Self.side("new batch")
        busy.batch.recipe = nil
        busy.machines[0].loadAverage = 3.5
        #expect(Self.reasons(Self.side("baseline"), busy) == [.load])
    }

    @Test("a different code path, limits, or outside solver command or version")
    func differences() {
        #expect(Self.reasons(Self.side("baseline", codePath: "x86-64-v4"), Self.side("new batch")) == [.codePath])
        // A machine recorded before code paths were ("unknown") is not a difference.
        #expect(Self.reasons(Self.side("baseline", codePath: "unknown"), Self.side("new batch")).isEmpty)
        #expect(Self.reasons(Self.side("baseline", cpuLimit: nil), Self.side("new batch")) == [.limits])
        #expect(Self.reasons(Self.side("baseline", command: "./ext -O2"), Self.side("new batch")) == [.commands])
        #expect(Self.reasons(Self.side("baseline"), Self.side("new batch", version: "ext 2")) == [.commands])
        // A batch that never asked (a coordinator's) is no difference of version.
        #expect(Self.reasons(Self.side("baseline", version: nil), Self.side("new batch", version: "ext 2")).isEmpty)
    }

    @Test("a run-to-run spread above the threshold, in either batch; none measured is no caveat")
    func spread() {
        #expect(Self.reasons(Self.side("baseline", spread: [1.2, 0.8, 1.1]), Self.side("new batch")) == [.spread])
        #expect(Self.reasons(Self.side("baseline"), Self.side("new batch", spread: [1.04, 0.97])).isEmpty)
        var runs = RunSpread()
        #expect(runs.typical == nil)
        runs.add(StoredRow(kind: .rushhour, puzzle: "p", solver: "bfs", status: .solved, seconds: 2))
        runs.add(StoredRow(kind: .rushhour, puzzle: "p", solver: "bfs", status: .solved, seconds: 1))
        #expect(runs.pairs == 1 && abs(runs.typical! - 1) < 1e-12)
    }
}
