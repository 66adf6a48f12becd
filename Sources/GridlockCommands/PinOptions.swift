// `--pin` and `--no-smt` for `batch` and `worker --workers N` (CPUPlacement), and the hidden
// `--cpu` each pinned worker process is started with.

import ArgumentParser
import GridlockCluster

struct PinOptions: ParsableArguments {
    @Flag(help: "Pin each worker process to a CPU of its own (round and round when there are more workers than CPUs), so the scheduler never moves a solver mid-job nor puts two workers on one CPU.")
    var pin = false

    @Flag(help: "With --pin, use one hardware thread per physical core, leaving its siblings idle: two threads of one core slow each other.")
    var noSMT = false

    @Option(help: .hidden)
    var cpu: Int?

    func validate() throws {
        if noSMT, !pin { throw ValidationError("--no-smt goes with --pin") }
        if let cpu, !CPUPlacement.allowed().contains(cpu) {
            throw ValidationError("--cpu \(cpu) is not a CPU this process may use (\(CPUPlacement.allowed().map(String.init).joined(separator: ",")))")
        }
    }

    /// Each of `workers` processes' CPU, or none without --pin.
    func plan(workers: Int) -> [Int] {
        pin ? CPUPlacement.plan(workers: workers, allowed: CPUPlacement.allowed(), noSMT: noSMT) : []
    }
}
