// `--memory-budget GiB`: the one memory limit of every command that searches (solve, bench,
// batch, worker). A search stops with status cutoff, reason memory-budget, before its tables
// would pass it (GridlockCore's MemoryBudget.swift), instead of swapping the machine to a halt.

import ArgumentParser
import GridlockCore

struct MemoryBudgetOption: ParsableArguments {
    @Option(
        name: .customLong("memory-budget"),
        help: ArgumentHelp(
            "Stop a search (status cutoff, reason memory-budget) once its tables pass this many GiB, instead of swapping (default: a quarter of this machine's memory, or of its control group's limit where smaller).",
            valueName: "GiB"))
    var gibibytes: Double?

    func validate() throws {
        // Checked before any conversion: 1e10 GiB in bytes is past Int.max, and inf or nan past everything.
        if let gibibytes, !(gibibytes > 0 && gibibytes <= 1_048_576) {
            throw ValidationError("--memory-budget must be a number of GiB above 0 and at most 1048576 (it was \(gibibytes))")
        }
    }

    /// The budget in bytes: the one given, or the machine's default.
    var bytes: Int { gibibytes.map { Int($0 * Double(1 << 30)) } ?? SolveOptions.defaultMemoryBudgetBytes }

    /// Each of `processes`' share of the budget, in GiB, as a worker's own --memory-budget.
    func share(of processes: Int) -> String { "\(Double(bytes / max(1, processes)) / Double(1 << 30))" }

    /// The least a process's share may be: below it, every job would stop at its first check.
    static let minimumShareBytes = 1 << 20

    /// Refuses a budget that leaves `processes` less than a MiB each (a share of 0 bytes
    /// would make every worker refuse its own flag and die at start).
    func validate(sharedBy processes: Int) throws {
        guard bytes / max(1, processes) >= Self.minimumShareBytes else {
            guard let gibibytes else {
                // Not the user's flag: a small control group's limit over many cores.
                throw ValidationError("""
                    the default memory budget (a quarter of the memory this process may use, \(bytes >> 20) MiB here) leaves \
                    less than 1 MiB to each of the \(processes) worker processes that share it: give --memory-budget, or fewer --workers
                    """)
            }
            throw ValidationError("--memory-budget \(gibibytes) GiB leaves less than 1 MiB to each of the \(processes) worker processes that share it")
        }
    }
}
