// An outside solver's run turned into a result, as a built-in solver's is: its answer read
// (AnswerCheck+JSON.swift) and replayed by the kind's validator, its ending named. A crash, a
// garbled answer or a wrong one never passes as solved.
//
//   exited 0, answer solved, validator agrees   solved (moves, solution)
//   exited 0, answer unsolvable                 unsolvable, judged by the input's expected answer, or
//                                               else checked by the kind's default solver
//   exited 0, answer wrong by the one rule      failed: "wrong answer: ..." naming what differs (the
//   (AnswerRule: refuted, another length than   first bad move, the lengths, a false claim of no
//   the input's MOVES, a false "unsolvable")    solution)
//   exited 0, answer unreadable                 failed: "error: ..." (its first bytes escaped)
//   exit code N, or killed by a signal          failed: "crashed: exit code N" / "signal N (NAME)"
//   still running at the deadline               cutoff: "cut off (timeout)", the group killed
//   past its CPU limit                          cutoff: "cut off (timeout)", termination timeout
//   killed at its memory limit                  cutoff: "cut off (memout)", termination memout

import Foundation
import GridlockCore
import GridlockWire

public enum ExternalSolving {
    /// Why a run that ended is no answer (status failed).
    public enum Failure: String, Sendable, Hashable {
        /// A non-zero exit, or death by a signal.
        case crashed
        /// Output that is no answer (not JSON, no status, too long), or a solver that could not start.
        case error
        /// An answer the validator refutes.
        case wrongAnswer = "wrong-answer"
    }

    public struct Outcome: Sendable {
        public var status: JobStatus
        public var failure: Failure?
        public var moves: Int?
        /// The move texts joined by ", ", or a Sudoku's filled grid.
        public var solution = ""
        /// The validated moves, for `solve` to show.
        public var validatedMoves: [SolutionMove] = []
        /// The solver's own figures, as compact JSON.
        public var stats: String?
        /// A claim of no solution that a built-in search confirmed (with no expected answer to
        /// judge it by).
        public var unsolvableConfirmed = false
        public var error: String?
        /// Why the run ended early, where it did: a limit (timeout, memout), a crash, an error.
        public var termination: Termination?
        public var wallSeconds = 0.0
        public var cpuSeconds = 0.0
        public var peakRSSBytes = 0
    }

    /// The longest error kept: a solver's own text (a 900 KB move) is quoted, not stored whole.
    static let maximumErrorCharacters = 1_000

    /// Runs `solver` on `puzzle`, killing it at `deadline`; `checks` limit the built-in search
    /// that checks a claim of no solution when the input expects none.
    public static func run(
        _ solver: ExternalSolver, on puzzle: ParsedPuzzle, deadline: ContinuousClock.Instant?, limits: JobLimits = JobLimits(),
        checks: SolveOptions = SolveOptions()
    ) -> Outcome {
        let run: ExternalProcess.Run
        do {
            switch solver.mode {
            case .once:
                let process = ExternalProcess(command: solver.command, environment: puzzle.externalEnvironment)
                run = try process.run(input: Array(puzzle.externalInput.utf8), deadline: deadline, limits: limits)
            case .serve:
                run = try ExternalServers.answer(solver, puzzle: puzzle, deadline: deadline, limits: limits)
            }
        } catch {
            return Outcome(status: .failed, failure: .error, error: "error: \(error.description)", termination: .error)
        }
        var outcome = judge(run, of: solver, on: puzzle, limits: limits, checks: checks)
        if solver.mode == .serve, outcome.failure == .wrongAnswer || outcome.failure == .error { ExternalServers.putOutOfStep(solver) }
        outcome.termination = outcome.termination ?? outcome.failure.flatMap { failure in
            switch failure {
            case .crashed: .crashed
            case .error: .error
            case .wrongAnswer: nil
            }
        }
        // Escaped and cut short: the text comes from the solver, and goes to terminals and rows.
        outcome.error = outcome.error.map { error in
            let printable = error.printable
            return printable.count > maximumErrorCharacters ? String(printable.prefix(maximumErrorCharacters)) + "…" : printable
        }
        outcome.wallSeconds = run.wallSeconds
        outcome.cpuSeconds = run.cpuSeconds
        outcome.peakRSSBytes = run.peakRSSBytes
        return outcome
    }

    /// What a finished run says, by the table above.
    static func judge(
        _ run: ExternalProcess.Run, of solver: ExternalSolver, on puzzle: ParsedPuzzle, limits: JobLimits = JobLimits(), checks: SolveOptions
    ) -> Outcome {
        let errors = run.errorOutput.isEmpty ? "" : "; its standard error: " + AnswerCheck.opening(String(decoding: run.errorOutput, as: UTF8.self))
        if run.outputOverflowed, run.ending != .timedOut {
            return Outcome(status: .failed, failure: .error, error: "error: \(solver.name) printed over \(run.output.count >> 10) KiB, more than an answer, and was stopped")
        }
        switch run.ending {
        case .timedOut:
            return Outcome(
                status: .cutoff, error: "cut off (timeout) after \(run.wallSeconds.formatted(decimals: 2)) s: \(solver.name) was killed at its time limit",
                termination: .timeout)
        case .overLimit(.cpu):
            let limit = (limits.cpuSeconds ?? 0).formatted(decimals: 2)
            return Outcome(
                status: .cutoff, error: "cut off (timeout) after \(run.cpuSeconds.formatted(decimals: 2)) s of CPU time: \(solver.name) was killed at its CPU limit of \(limit) s",
                termination: .timeout)
        case .overLimit(.memory):
            return Outcome(
                status: .cutoff,
                error: "cut off (memout): \(solver.name) reached its memory limit of \((limits.memoryBytes ?? 0).bytes) (peak \(run.peakRSSBytes.bytes)) and was killed",
                termination: .memout)
        case .signalled(let signal):
            return Outcome(status: .failed, failure: .crashed, error: "crashed: \(solver.name) was killed by signal \(signal) (\(signalName(signal)))\(errors)")
        case .exited(let code) where code != 0:
            return Outcome(status: .failed, failure: .crashed, error: "crashed: \(solver.name) exited with code \(code)\(code == 127 ? " (command not found?)" : "")\(errors)")
        case .exited:
            break
        }
        let text = String(decoding: run.output, as: UTF8.self)
        let answer: AnswerCheck.Answer
        do {
            answer = try AnswerCheck.answer(fromJSON: text)
        } catch {
            return Outcome(status: .failed, failure: .error, error: "error: \(error.description)\(errors)")
        }
        var outcome = Outcome(status: .failed, stats: answer.stats)
        switch answer.claim {
        case .unsolvable:
            outcome.status = .unsolvable
            // The input's expected answer judges it, else a built-in search (AnswerCheck).
            switch AnswerCheck.verdict(of: .unsolvable, for: puzzle, options: checks) {
            case .correct: outcome.unsolvableConfirmed = true
            case .unknown: break
            case .wrong(let reason):
                outcome.status = .failed
                outcome.failure = .wrongAnswer
                outcome.error = "wrong answer: \(reason)"
            }
            return outcome
        case .filled(let grid):
            outcome.solution = grid
        case .solved(let texts):
            outcome.solution = texts.joined(separator: ", ")
            if puzzle.sudoku == nil {
                outcome.moves = texts.count
                outcome.validatedMoves = (try? AnswerCheck.moves(texts, for: puzzle)) ?? []
            } else if texts.count == 1 {
                outcome.solution = texts[0]
            }
        }
        switch AnswerCheck.verdict(of: answer.claim, for: puzzle) {
        case .correct:
            outcome.status = .solved
        case .wrong(let reason), .unknown(let reason):
            outcome.validatedMoves = []
            outcome.failure = .wrongAnswer
            outcome.error = "wrong answer: \(reason)"
        }
        return outcome
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
            SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM",
            SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
