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

    public static func plan(
        batch: String, inputs: [Input], solvers: [String], maxStates: Int, timeoutSeconds: Double?
    ) -> BatchPlan {
        var jobs: [Job] = []
        var invalid: [(source: String, text: String, solver: String, error: String)] = []
        for input in inputs {
            for record in PuzzleDocument.records(in: input.text, isSingleLine: RushHourPuzzle.isSingleLineRecord) {
                let source = "\(input.name):\(record.firstLine)"
                do {
                    _ = try RushHourPuzzle.parse(record)
                    for solver in solvers {
                        jobs.append(Job(
                            batch: batch, id: jobs.count, attempt: 0, kind: "rushhour", puzzle: record.text, solver: solver,
                            maxStates: maxStates, timeoutSeconds: timeoutSeconds, source: source))
                    }
                } catch {
                    for solver in solvers { invalid.append((source, record.text, solver, "\(input.name): \(error)")) }
                }
            }
        }
        let coordinator = WorkerIdentity(host: ProcessInfo.processInfo.hostName, pid: Int(getpid()))
        let invalidResults = invalid.enumerated().map { index, entry in
            var result = JobResult(batch: batch, job: jobs.count + index, attempt: 0, worker: coordinator, status: "invalid")
            result.puzzle = entry.text
            result.solver = entry.solver
            result.source = entry.source
            result.error = entry.error
            return result
        }
        return BatchPlan(batch: batch, jobs: jobs, invalid: invalidResults)
    }
}
