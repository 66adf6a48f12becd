// Which compiled paths the solvers take on this machine: the x86-64-v4 search where the CPU
// runs it, the portable ones elsewhere, in debug builds, or when GRIDLOCK_PORTABLE asks (to
// compare the two, or to rule the wide one out). Decided here, in code built for every x86-64,
// before any of GridlockX86V4 can run.

import GridlockCore
import GridlockX86V4

enum SolverPaths {
    #if DEBUG
    static let isDebugBuild = true
    #else
    static let isDebugBuild = false
    #endif

    /// Why the wide search stays off, or nil when `install` turns it on.
    static func refusal(
        environment: [String: String], cpuRunsX86V4: Bool = CPUFeatures.runsX86V4, debugBuild: Bool = isDebugBuild
    ) -> String? {
        if let value = environment["GRIDLOCK_PORTABLE"], !value.isEmpty, value != "0" { return "GRIDLOCK_PORTABLE=\(value)" }
        // Unoptimized, GridlockX86V4 calls the core's generic search unspecialized: 3.7x slower
        // than the portable one (a helper's measurement), which the tests' runs of the debug
        // binary would pay. scripts/check-portable runs the release binary's wide search.
        if debugBuild { return "a debug build: the x86-64-v4 search is specialized only when optimized" }
        return cpuRunsX86V4 ? nil : "this CPU has no x86-64-v4"
    }

    /// Makes `bfs`, `bidirectional` and `bands` take their x86-64-v4 searches where they may.
    static func install(environment: [String: String]) {
        guard refusal(environment: environment) == nil else { return }
        RushHourBFSSolver.wideSearch.withLock { $0 = .init(search: X86V4Searches.rushHourBFS) }
        RushHourBidirectionalSolver.wideSearch.withLock { $0 = .init(search: X86V4Searches.rushHourBidirectional) }
        SudokuBandSolver.wideSearch.withLock { $0 = .init(search: X86V4Searches.sudokuBands) }
    }

    /// The line `--version` shows: what `install` did, and why not when it did not.
    static func description(environment: [String: String]) -> String {
        if RushHourBFSSolver.wideSearch.withLock({ $0 != nil }), RushHourBidirectionalSolver.wideSearch.withLock({ $0 != nil }),
           SudokuBandSolver.wideSearch.withLock({ $0 != nil }) {
            return "solver paths: x86-64-v4 for bfs, bidirectional and bands (and the commands that search with them); portable for the rest"
        }
        return "solver paths: portable (\(refusal(environment: environment) ?? "not installed"))"
    }
}
