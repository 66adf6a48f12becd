// A serving solver that prints between two puzzles is out of step: its next line might answer
// the last puzzle, so the next puzzle goes to a new server. Timed here, where the test decides
// when the next puzzle comes (from the command line, it comes at once).

import Foundation
import Testing
@testable import GridlockCluster
import GridlockCore
import GridlockWire

@Suite("serving solvers out of step", .serialized)
struct ExternalServerTests {
    @Test("output printed between two puzzles puts the server out of step: the next puzzle goes to a new one")
    func staleOutputReplaces() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let command = #"while read -r line; do echo $$ >> '\#(log)'; echo '{"status":"unsolvable"}'; (sleep 0.1; echo extra) & done"#
        let solver = ExternalSolver(kind: .rushhour, name: "stale", command: command, mode: .serve)
        let puzzle = try ParsedPuzzle.parse("ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo", kind: .rushhour)
        defer { ExternalServers.stopAll() }
        let first = try ExternalServers.answer(solver, puzzle: puzzle, deadline: nil, limits: JobLimits())
        usleep(400_000)
        let second = try ExternalServers.answer(solver, puzzle: puzzle, deadline: nil, limits: JobLimits())
        #expect(String(decoding: first.output, as: UTF8.self) == #"{"status":"unsolvable"}"#)
        #expect(String(decoding: second.output, as: UTF8.self) == #"{"status":"unsolvable"}"#)
        let pids = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(pids.count == 2 && pids[0] != pids[1], "\(pids)")
    }
}
