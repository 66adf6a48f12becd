// From input files to a batch: one job per readable puzzle and solver; every unreadable record
// becomes an `invalid` result that names its file, line and reason, stored like the rest.

import Foundation
import GridlockCore
import GridlockWire

public enum BatchPlanner {
    public struct Input: Sendable {
        public var name: String
        public var text: String

        public init(name: String, text: String) {
            self.name = name
            self.text = text
        }
    }

    /// `kind` nil tells each puzzle's kind from its shape; `solvers` empty means each kind's
    /// default, else the listed solvers of each puzzle's kind.
    public static func plan(
        batch: String, inputs: [Input], kind: PuzzleKind? = nil, tileOptions: TileReadOptions = TileReadOptions(),
        solvers: [String], maxStates: Int, timeoutSeconds: Double?
    ) -> BatchPlan {
        var jobs: [Job] = []
        var invalid: [(kind: PuzzleKind, source: String, text: String, solver: String, error: String)] = []
        for input in inputs {
            for record in PuzzleKind.records(in: input.text, kind: kind) {
                let source = "\(input.name):\(record.firstLine)"
                let recordKind = kind ?? PuzzleKind.detect(record)
                do {
                    let puzzle = try ParsedPuzzle.parse(record, kind: recordKind, tileOptions: tileOptions)
                    // A tile board read with --goal or --size travels as JSON, which carries both.
                    let text = tileOptions == TileReadOptions() ? record.text : puzzle.tiles?.jsonText ?? record.text
                    for solver in recordKind.solvers(from: solvers) {
                        jobs.append(Job(
                            batch: batch, id: jobs.count, attempt: 0, kind: recordKind.rawValue, puzzle: text,
                            solver: solver, maxStates: maxStates, timeoutSeconds: timeoutSeconds, source: source))
                    }
                } catch {
                    for solver in recordKind.solvers(from: solvers) {
                        invalid.append((recordKind, source, record.text, solver, "\(input.name): \(error)"))
                    }
                }
            }
        }
        let coordinator = WorkerIdentity(host: ProcessInfo.processInfo.hostName, pid: Int(getpid()))
        let invalidResults = invalid.enumerated().map { index, entry in
            var result = JobResult(batch: batch, job: jobs.count + index, attempt: 0, worker: coordinator, status: "invalid")
            result.kind = entry.kind.rawValue
            result.puzzle = entry.text
            result.solver = entry.solver
            result.source = entry.source
            result.error = entry.error
            return result
        }
        return BatchPlan(batch: batch, jobs: jobs, invalid: invalidResults)
    }
}
