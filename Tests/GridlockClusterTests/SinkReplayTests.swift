// The sink replays what it stores (issue 48, point 2): an honest worker's answers of every kind
// pass; a key-holding liar's are stored as wrong, naming it.

import Foundation
import Testing
@testable import GridlockCluster
import GridlockCore
import GridlockWire

@Suite("The sink's replay")
struct SinkReplayTests {
    static let worker = WorkerIdentity(host: "honest", pid: 7)
    static let t0 = ContinuousClock.now

    /// The samples file's puzzles of every kind, each run as a worker runs it.
    static let honestResults: [JobResult] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/samples/kinds.txt")
        let text = try! String(contentsOf: url, encoding: .utf8)
        var results: [JobResult] = []
        for (index, record) in PuzzleKind.records(in: text, kind: nil).enumerated() {
            guard let puzzle = try? ParsedPuzzle.parse(record) else { continue }
            let job = Job(
                batch: "b", id: index, attempt: 1, kind: puzzle.kind, puzzle: record.text, solver: puzzle.kind.defaultSolver,
                maxStates: 1_000_000, timeoutSeconds: nil, source: "kinds.txt:\(record.firstLine)")
            results.append(JobRunner.run(job, worker: worker, meter: PeakMemoryMeter()))
        }
        // A 3x2 tile board reads only with its size given: the sink reads it as the worker did.
        let tiles = Job(
            batch: "b", id: results.count, attempt: 1, kind: .tiles, puzzle: "1 2 3 4 0 5", solver: "bfs", maxStates: 1_000,
            timeoutSeconds: nil, source: "t.txt:1", options: JobReadOptions(tileWidth: 3, tileHeight: 2))
        results.append(JobRunner.run(tiles, worker: worker, meter: PeakMemoryMeter()))
        return results
    }()

    @Test("every honest answer of every kind replays: nothing is refused")
    func honestAnswersReplay() {
        let solved = Self.honestResults.filter { $0.status == .solved }
        #expect(Set(solved.map(\.kind)) == Set(PuzzleKind.allCases))
        #expect(solved.contains { $0.kind == .tiles && $0.options.tileWidth == 3 })
        for result in Self.honestResults {
            #expect(SinkReplay.replay(result).refutation == nil, "\(result.kind) \(result.source): \(result.solution)")
        }
        var machine = SinkMachine()
        _ = machine.receiveResults([WireMessage.results(Self.honestResults).encoded()], now: Self.t0)
        #expect(machine.counters.refutedByReplay == 0)
        #expect(SinkMachineTests.stores(machine.finish()) == [Self.honestResults])
    }

    @Test("a liar's answers of every kind are refused, each with its reason")
    func liesAreRefused() {
        for honest in Self.honestResults where honest.status == .solved {
            var lie = honest
            lie.solution = "validated"
            #expect(SinkReplay.replay(lie).refutation != nil, "\(honest.kind): 'validated' replayed")
            if let moves = honest.moves {
                var longer = honest
                longer.moves = moves + 1
                #expect(SinkReplay.replay(longer).refutation?.contains("solution lists") == true, "\(honest.kind)")
            }
            // Read without its options, the 3x2 board is another puzzle, or none.
            if honest.options.tileWidth != nil {
                var unsized = honest
                unsized.options = JobReadOptions()
                #expect(SinkReplay.replay(unsized).refutation != nil)
            }
        }
        var rushHour = Self.honestResults.first { $0.kind == .rushhour && $0.status == .solved && ($0.moves ?? 0) > 1 }!
        rushHour.solution = rushHour.solution.split(separator: ", ").reversed().joined(separator: ", ")
        #expect(SinkReplay.replay(rushHour).refutation?.hasPrefix("the validator refused it: move ") == true)
        var huge = rushHour
        huge.solution = String(repeating: "A right 1, A left 1, ", count: 4_000)
        #expect(SinkReplay.replay(huge).refutation?.contains("past the 65536 a sink stores") == true)
        var unreadable = rushHour
        unreadable.puzzle = "not a puzzle"
        #expect(SinkReplay.replay(unreadable).refutation?.hasPrefix("it claims to solve a puzzle that cannot be read") == true)
        unreadable.status = .unsolvable
        #expect(SinkReplay.replay(unreadable).refutation?.hasPrefix("it claims no solution for a puzzle that cannot be read") == true)
        var uncounted = rushHour
        uncounted.moves = nil
        #expect(SinkReplay.replay(uncounted).refutation != nil)
    }

    @Test("what is not a solution is not replayed: no solution claimed, cut off, an analysis")
    func onlySolutionsAreReplayed() {
        let solved = Self.honestResults.first { $0.kind == .rushhour && $0.status == .solved }!
        for status in [JobStatus.cutoff, .failed, .invalid] {
            var other = solved
            other.status = status
            other.solution = "anything"
            #expect(SinkReplay.replay(other).refutation == nil)
        }
        var analysis = solved
        analysis.solver = PuzzleKind.analysisJob
        analysis.solution = "{\"reachable\": 5}"
        #expect(SinkReplay.replay(analysis).refutation == nil)
        #expect(SinkReplay.replay(analysis).expectedMoves == .some(solved.expectedMoves))
    }

    @Test("the input's MOVES are the puzzle's, not the worker's echo: a liar's are replaced, and its answer refused")
    func expectedMovesAreThePuzzles() {
        // A database line that says 23: a claim of no solution, with MOVES said to be none.
        let line = "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419"
        let job = Job(batch: "b", id: 0, attempt: 1, kind: .rushhour, puzzle: line, solver: "bfs", maxStates: 1_000_000, timeoutSeconds: nil)
        let honest = JobRunner.run(job, worker: Self.worker, meter: PeakMemoryMeter())
        #expect(honest.expectedMoves == 23 && honest.moves == 23)
        var noSolution = JobResult(answering: job, worker: Self.worker, status: .unsolvable)
        noSolution.verdict = .correct
        // A longer answer that replays, its MOVES misstated to match it.
        var longer = honest
        // Its first move, taken back, then the answer: legal, and two moves longer.
        let first = honest.solution.split(separator: ", ")[0].split(separator: " ")
        let opposite = ["up": "down", "down": "up", "left": "right", "right": "left"][String(first[1])]!
        longer.solution = "\(first.joined(separator: " ")), \(first[0]) \(opposite) \(first[2]), " + honest.solution
        longer.moves = 25
        longer.expectedMoves = 25
        var machine = SinkMachine()
        _ = machine.receiveResults([WireMessage.results([honest, noSolution, longer]).encoded()], now: Self.t0)
        let stored = SinkMachineTests.stores(machine.finish()).flatMap { $0 }
        #expect(stored[0] == honest && !stored[0].isWrong)
        #expect(stored[1].expectedMoves == 23 && stored[1].isWrong)
        #expect(stored[1].error?.contains("it gives the input's MOVES as none, and the puzzle says 23") == true)
        #expect(stored[2].expectedMoves == 23 && stored[2].isWrong)
        #expect(stored[2].error?.contains("it gives the input's MOVES as 25, and the puzzle says 23") == true)
        #expect(machine.counters.refutedByReplay == 2)
    }

    @Test("a solution that replays but is longer than its puzzle's MOVES could take is kept only as long as they could be, and said so")
    func solutionsAreBoundedByThePuzzle() {
        let line = "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419"
        let job = Job(batch: "b", id: 0, attempt: 1, kind: .rushhour, puzzle: line, solver: "bfs", maxStates: 1_000_000, timeoutSeconds: nil)
        let honest = JobRunner.run(job, worker: Self.worker, meter: PeakMemoryMeter())
        // Its first move, taken back 2,000 times, then the answer: legal, 4,023 moves, 38 KB,
        // under the fixed 64 KiB bound, and 23 moves of at most `B right 4` take 253 bytes.
        let first = honest.solution.split(separator: ", ")[0].split(separator: " ")
        let opposite = ["up": "down", "down": "up", "left": "right", "right": "left"][String(first[1])]!
        let detour = "\(first.joined(separator: " ")), \(first[0]) \(opposite) \(first[2]), "
        var long = honest
        long.job = 1
        long.solution = String(repeating: detour, count: 2_000) + honest.solution
        long.moves = 4_023
        #expect(long.solution.utf8.count > 30_000 && long.solution.utf8.count < SinkReplay.maximumSolutionBytes)
        #expect(SinkReplay.replay(long).refutation == nil)
        var machine = SinkMachine()
        _ = machine.receiveResults([WireMessage.results([honest, long]).encoded()], now: Self.t0)
        let stored = SinkMachineTests.stores(machine.finish()).flatMap { $0 }
        #expect(stored[0] == honest)
        #expect(stored[1].solution.utf8.count < 300 && machine.counters.cut == 1)
        let said = "the sink cut a solution of \(long.solution.utf8.count) bytes from worker honest:7 to 256: its puzzle's answer takes 23 moves of at most 9 bytes"
        #expect(stored[1].error?.contains(said) == true, "\(stored[1].error ?? "")")

        // An analysis's report is no list of moves: kept whole, however long.
        var analysis = honest
        analysis.solver = PuzzleKind.analysisJob
        analysis.solution = "{\"report\": \"" + String(repeating: "r", count: 3_000) + "\"}"
        analysis.moves = 24
        #expect(!SinkReplay.boundToPuzzle(&analysis, expected: 23, longestMove: 9))
        // An answer of the input's MOVES is kept whole, however its moves are written.
        var padded = honest
        padded.solution = String(repeating: " ", count: 1_000) + honest.solution
        #expect(!SinkReplay.boundToPuzzle(&padded, expected: 23, longestMove: 9))
        // Any MOVES an input says, without a trap: a bound past Int.max keeps everything.
        var huge = long
        huge.moves = Int.max
        #expect(!SinkReplay.boundToPuzzle(&huge, expected: Int.max / 4, longestMove: 9))
        #expect(ParsedPuzzle.longestSolutionBytes(moves: Int.max / 4, longestMoveBytes: 9) == Int.max)
    }

    @Test("the sink stores a refused answer as wrong, naming the worker; the honest ones beside it untouched")
    func sinkStoresRefusedAnswersAsWrong() {
        let honest = Self.honestResults.filter { $0.kind == .rushhour && $0.status == .solved }
        #expect(honest.count >= 2)
        var lie = honest[0]
        lie.worker = WorkerIdentity(host: "liar", pid: 66)
        lie.solution = "validated"
        lie.verdict = .correct
        var machine = SinkMachine()
        let actions = machine.receiveResults([WireMessage.results([lie, honest[1]]).encoded()], now: Self.t0)
        #expect(machine.counters.refutedByReplay == 1)
        #expect(actions.contains { if case .log(let line) = $0 { line.contains("from worker liar:66") } else { false } })
        let stored = SinkMachineTests.stores(machine.finish()).flatMap { $0 }
        #expect(stored.count == 2)
        #expect(stored[0].isWrong && stored[0].verdict == .wrong)
        #expect(stored[0].error?.hasPrefix("the sink's replay refused the answer of worker liar:66: ") == true)
        #expect(stored[1] == honest[1])
        #expect(StoredJob(storing: stored[0]).wrong)

        // A long refused solution is kept only in part.
        var flood = honest[0]
        flood.solution = String(repeating: "x", count: 500_000)
        _ = machine.receiveResults([WireMessage.results([flood]).encoded()], now: Self.t0)
        let kept = SinkMachineTests.stores(machine.finish()).flatMap { $0 }
        #expect(kept.count == 1 && kept[0].solution.utf8.count < 5_000)
    }

    @Test("the acknowledgement names the worker whose answer the replay refused, stored or a duplicate; not one that called its answer wrong itself")
    func acknowledgementNamesTheLiar() {
        let honest = Self.honestResults.first { $0.kind == .rushhour && $0.status == .solved }!
        var lie = honest
        lie.worker = WorkerIdentity(host: "liar", pid: 66)
        lie.solution = "validated"
        lie.verdict = .correct
        var confessed = lie
        confessed.job += 1
        confessed.worker = WorkerIdentity(host: "broken", pid: 67)
        confessed.verdict = .wrong
        var machine = SinkMachine()
        _ = machine.receiveResults([WireMessage.results([lie, confessed, honest]).encoded()], now: Self.t0)
        let written = SinkMachineTests.stores(machine.finish()).flatMap { $0 }
        #expect(written.map(\.refutedAtSink) == [true, false, false])
        #expect(machine.counters.refutedByReplay == 2)
        // The lie's row was stored before (a duplicate): it is named all the same.
        let rows = written.map { StoredJob(storing: $0) }
        let acks = machine.stored(written, as: ResultStore.Stored(rows: rows, inserted: 2, written: [1, 2]))
        guard case .send(.stored(_, let jobs))? = acks.first else {
            Issue.record("no acknowledgement: \(acks)")
            return
        }
        #expect(jobs.map(\.refutedWorker) == [lie.worker, nil, nil])

        // A group's acknowledgements name each liar once: 4,096 lies by one worker with a
        // 255-byte name would otherwise pass the coordinator's frame limit.
        var long = lie
        long.worker = WorkerIdentity(host: String(repeating: "h", count: 255), pid: 1)
        var group = SinkMachine()
        _ = group.receiveResults([WireMessage.results((0..<64).map { var each = long; each.job = $0; return each }).encoded()], now: Self.t0)
        let lies = SinkMachineTests.stores(group.finish()).flatMap { $0 }
        let named = group.stored(lies, as: ResultStore.Stored(rows: lies.map { StoredJob(storing: $0) }, inserted: lies.count))
        guard case .send(.stored(_, let rows))? = named.first else {
            Issue.record("no acknowledgement: \(named)")
            return
        }
        #expect(rows.count == 64 && rows.compactMap(\.refutedWorker) == [long.worker])
    }

    @Test("no result makes a row larger than its answer could be: long errors, stats and non-answers are cut, and said so")
    func resultsAreBounded() {
        let honest = Self.honestResults.first { $0.kind == .rushhour && $0.status == .solved }!
        var cutoff = honest
        cutoff.status = .cutoff
        cutoff.solution = String(repeating: "s", count: 3_000_000)
        cutoff.error = String(repeating: "e", count: 3_000_000)
        cutoff.solverStats = "{\"x\": \"" + String(repeating: "t", count: 3_000_000) + "\"}"
        var machine = SinkMachine()
        _ = machine.receiveResults([WireMessage.results([honest, cutoff]).encoded()], now: Self.t0)
        let stored = SinkMachineTests.stores(machine.finish()).flatMap { $0 }
        #expect(machine.counters.cut == 1)
        #expect(stored[0] == honest)
        let row = stored[1]
        #expect(row.solution.utf8.count < 4_200 && row.solverStats == nil && (row.error?.utf8.count ?? 0) < 4_400)
        #expect(row.error?.contains("the sink cut a cutoff result's solution of 3000000 bytes, solver stats of \(cutoff.solverStats!.utf8.count) bytes, an error of 3000000 bytes from worker honest:7") == true)
        // Within the bounds, nothing is touched.
        var modest = cutoff
        modest.solution = String(repeating: "s", count: 4_000)
        modest.error = String(repeating: "e", count: 4_000)
        modest.solverStats = "{}"
        #expect(!SinkReplay.exceedsBounds(modest) && !SinkReplay.exceedsBounds(honest))
    }
}
