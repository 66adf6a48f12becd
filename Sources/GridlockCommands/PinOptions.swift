// `--pin` and `--no-smt` for `batch` and `worker --workers N` (CPUPlacement). Each pinned
// worker process is started with the worker's hidden `--cpu`.

import ArgumentParser
import GridlockCluster

struct PinOptions: ParsableArguments {
    @Flag(help: "Pin each worker process to a CPU of its own (round and round when there are more workers than CPUs), so the scheduler never moves a solver mid-job nor puts two workers on one CPU.")
    var pin = false

    @Flag(help: "With --pin, use one hardware thread per physical core, leaving its siblings idle: two threads of one core slow each other.")
    var noSMT = false

    func validate() throws {
        if noSMT, !pin { throw ValidationError("--no-smt goes with --pin") }
    }

    /// Each of `workers` processes' CPU, or none without --pin.
    func plan(workers: Int) -> [Int] {
        pin ? CPUPlacement.plan(workers: workers, allowed: CPUPlacement.allowed(), noSMT: noSMT) : []
    }
}
