// Which compiled paths the solvers take on this machine: the x86-64-v4 searches where the CPU
// runs them, the portable ones elsewhere or when GRIDLOCK_PORTABLE=1 asks (to compare the two,
// or to rule the wide ones out). Decided here, in code built for every x86-64, before any of
// GridlockX86V4 can run.

import GridlockCore
import GridlockX86V4

enum SolverPaths {
    /// Why the wide searches stay off, or nil when `install` turns them on.
    static func refusal(environment: [String: String], cpuRunsX86V4: Bool = CPUFeatures.runsX86V4) -> String? {
        if environment["GRIDLOCK_PORTABLE"] == "1" { return "GRIDLOCK_PORTABLE=1" }
        return cpuRunsX86V4 ? nil : "this CPU has no x86-64-v4"
    }

    /// Makes `bfs` take its x86-64-v4 search where it may.
    static func install(environment: [String: String]) {
        guard refusal(environment: environment) == nil else { return }
        RushHourBFSSolver.wideSearch.withLock { $0 = .init(search: X86V4Searches.rushHourBFS) }
    }

    /// The line `--version` shows: which path `bfs` takes here, and why.
    static func description(environment: [String: String]) -> String {
        if let refusal = refusal(environment: environment) { return "solver paths: portable (\(refusal))" }
        return "solver paths: x86-64-v4 (bfs), portable (the rest)"
    }
}
