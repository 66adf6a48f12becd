// The hook through which a solver takes a search compiled elsewhere (GridlockX86V4's, for
// x86-64-v4), installed at start by GridlockCommands' SolverPaths.

/// A search compiled for other instructions, installed in a solver's `wideSearch`. A struct, not
/// a bare closure: a closure kept in the Mutex came back from each `withLock` wrapped in one
/// more reabstraction thunk, and 9,342 solves later the chain of thunks overflowed the stack.
public struct InstalledSearch<Puzzle>: Sendable {
    public let search: @Sendable (Puzzle, SolveOptions) -> SolveResult

    public init(search: @escaping @Sendable (Puzzle, SolveOptions) -> SolveResult) {
        self.search = search
    }
}
