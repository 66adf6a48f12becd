// `--external KIND:NAME=COMMAND` and `--external-serve KIND:NAME=COMMAND`, repeatable: outside
// solvers for solve, bench, batch, coordinator and worker (GridlockCore's ExternalSolver.swift
// has the contract). A batch hands its flags to the workers it starts; a coordinator needs
// them to accept the names in --solver and to put each command's digest in its jobs.

import ArgumentParser
import GridlockCluster
import GridlockClusterBase
import GridlockCore

struct ExternalSolverOptions: ParsableArguments {
    @Option(
        name: .customLong("external"),
        help: ArgumentHelp(
            "An outside solver, repeatable: KIND:NAME=COMMAND makes NAME a solver of KIND. COMMAND runs through /bin/sh -c once per puzzle, reads the puzzle on standard input and prints {\"status\":\"solved\",\"moves\":[...]} or {\"status\":\"unsolvable\"}; every answer is replayed by Gridlock's validator.",
            valueName: "KIND:NAME=COMMAND"))
    var texts: [String] = []

    @Option(
        name: .customLong("external-serve"),
        help: ArgumentHelp(
            "An outside solver that serves, repeatable: KIND:NAME=COMMAND starts COMMAND once per worker process and writes it one puzzle a line (a grid's rows joined by '/'); it answers each with one JSON line, as above, flushed. A server that dies, overruns a limit or prints more than an answer is restarted.",
            valueName: "KIND:NAME=COMMAND"))
    var serving: [String] = []

    func validate() throws { _ = try solvers() }

    /// The solvers the flags name, after those of a config file's `job.external` and
    /// `job.external_serve` lines (a flag beats a line that names the same solver).
    func solvers(file: ClusterConfig = ClusterConfig()) throws -> [ExternalSolver] {
        let given: [ExternalSolver]
        let configured: [ExternalSolver]
        do {
            given = try ExternalSolver.parseAll(texts, serving: serving)
        } catch {
            throw ValidationError("\(serving.isEmpty ? "--external" : "--external/--external-serve"): \(error.description)")
        }
        do {
            configured = try ExternalSolver.parseAll(file.lists["job.external"] ?? [], serving: file.lists["job.external_serve"] ?? [])
        } catch {
            throw ValidationError("the config file's job.external and job.external_serve: \(error.description)")
        }
        return configured.filter { solver in !given.contains { $0.kind == solver.kind && $0.name == solver.name } } + given
    }

    /// The same flags, for the processes a command starts.
    var flags: [String] { texts.flatMap { ["--external", $0] } + serving.flatMap { ["--external-serve", $0] } }
}

extension SolveReport {
    /// `solve`'s report of an outside solver's run: a validated answer as a built-in solver's
    /// (its moves, compared with the expected answer), a failure with its kind as the error code
    /// (`crashed`, `error`, `wrong-answer`).
    init(_ text: String, source: Source?, solver: ExternalSolver, puzzle: ParsedPuzzle, outcome: ExternalSolving.Outcome) {
        guard let result = outcome.solveResult(for: puzzle) else {
            self.init(puzzle: text, source: source)
            kind = puzzle.kind.rawValue
            label = puzzle.label
            self.solver = solver.name
            self.status = "failed"
            expectedMoves = puzzle.expectedMoves
            error = ErrorInfo(code: outcome.failure?.rawValue ?? "error", message: outcome.error ?? "the solver failed")
            outside = true
            return
        }
        self = .solved(text, source: source, solver: solver.name, result: result, puzzle: puzzle)
        outside = true
    }
}

extension ExternalSolving.Outcome {
    /// The run as a built-in solver's result (its validated moves, its wall time and peak
    /// memory); nil for a run that gave no answer (crashed, unreadable, wrong).
    func solveResult(for puzzle: ParsedPuzzle) -> SolveResult? {
        var statistics = SearchStatistics()
        statistics.seconds = wallSeconds
        statistics.memoryBytes = peakRSSBytes
        let solveStatus: SolveStatus
        switch status {
        case .solved: solveStatus = .solved
        case .unsolvable: solveStatus = .unsolvable
        case .cutoff: solveStatus = .cutoff
        case .invalid, .failed: return nil
        }
        var result = SolveResult(
            status: solveStatus, cutoffReason: solveStatus == .cutoff ? (termination == .memout ? .memoryBudget : .timeout) : nil, solution: validatedMoves, statistics: statistics)
        if puzzle.sudoku != nil, solveStatus == .solved { result.solvedPosition = solution }
        return result
    }
}
