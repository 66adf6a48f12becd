// `solve --format json`'s line, written member by member, against the JSONEncoder it replaced:
// the same bytes for reports of every kind and status, every optional member, strings that
// need escaping and numbers of every form; and a line that decodes back to the report.

import Foundation
@testable import GridlockCore
import Testing

@Suite("solve's JSON line")
struct SolveReportJSONTests {
    /// A report of every puzzle in the samples of every kind (one line no kind reads), by each
    /// of its kind's solvers, once whole and once cut off after a few states.
    static func reports() throws -> [SolveReport] {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/samples/kinds.txt")
        var reports: [SolveReport] = []
        for record in PuzzleKind.records(in: try String(contentsOf: samples, encoding: .utf8), kind: nil) {
            let source = SolveReport.Source(file: "data/samples/kinds.txt", line: record.firstLine)
            let puzzle: ParsedPuzzle
            do {
                puzzle = try ParsedPuzzle.parse(record)
            } catch {
                reports.append(.invalid(record.text, source: source, error: error))
                continue
            }
            for solver in puzzle.kind.solverNames {
                for options in [SolveOptions(exploreWholeCluster: true, solutionLimit: 2), SolveOptions(maxStates: 3)] {
                    guard var result = puzzle.solve(with: solver, options: options) else { continue }
                    result.statistics.seconds = 0.000_202_943_000_000_000_03 * Double(reports.count + 1)
                    reports.append(.solved(record.text, source: source, solver: solver, result: result, puzzle: puzzle))
                }
            }
        }
        return reports
    }

    @Test("a report of every kind, solver and status is written as JSONEncoder wrote it, byte for byte")
    func sameBytes() throws {
        let reports = try Self.reports()
        #expect(Set(reports.map(\.status)) == ["solved", "unsolvable", "cutoff", "invalid"])
        #expect(Set(reports.compactMap(\.kind)).count == PuzzleKind.allCases.count)
        for report in reports {
            #expect(report.jsonLine == JSONLine.encode(report), "\(report.puzzle) by \(report.solver ?? "-")")
        }
    }

    @Test("every optional member, strings with quotes, backslashes, slashes and control characters, and numbers of every form")
    func everyMember() throws {
        var report = SolveReport(puzzle: "a\"b\\c/d\n\t\r\u{08}\u{0C}\u{01}\u{1F}\u{7F}é\u{2028}😀", source: .init(file: "dir/ünï \"q\".txt", line: Int.max))
        report.kind = "tiles"
        report.label = "label\u{00}"
        report.solver = "outside/solver"
        report.solvedBy = "bfs"
        report.status = "cutoff"
        report.cutoffReason = "timeout"
        report.reason = "parity"
        report.moves = -1
        report.solution = .moves([])
        report.solutions = 0
        report.steps = [
            SolutionMove(piece: "A", from: BoardCell(row: 0, column: 5), to: nil, text: "A right 1"),
            SolutionMove(piece: "", from: nil, to: BoardCell(row: -3, column: Int.min), text: ""),
        ]
        report.cluster = 0
        report.expectedMoves = Int.min
        report.expectedCluster = 7
        report.matchesExpected = false
        report.error = .init(code: "invalid-solution", message: "line 1\nline 2", line: 3, column: nil)
        report.outside = true
        for seconds in [0.0, -0.0, 1, 2.5, 1e-05, 1e-7, 0.0001, 1e15, 1e16, 1.5e300, 1.2345678901234568e20, Double.leastNonzeroMagnitude * 6_000, Double.ulpOfOne, Double.greatestFiniteMagnitude] {
            report.stats = .init(
                examined: 0, enqueued: Int.max, examinedPerLevel: [], enqueuedPerLevel: [0, -1, 10, 1_000_000],
                maxQueue: 1, finalQueue: 2, statesStored: 3, memoryBytes: 4, levelReached: 5, seconds: seconds,
                searchNodes: 6, guesses: 7, propagations: 8, bounds: [41, 43])
            #expect(report.jsonLine == JSONLine.encode(report), "\(seconds)")
        }
        report.solution = .position("1234")
        report.stats?.bounds = []
        #expect(report.jsonLine == JSONLine.encode(report))
        #expect(try JSONDecoder().decode(SolveReport.self, from: Data(report.jsonLine.utf8)) == report)
    }

    @Test("a number JSON cannot hold is written as null, where JSONEncoder threw")
    func notFinite() throws {
        var report = try #require(try Self.reports().first { $0.stats != nil })
        report.stats?.seconds = .nan
        #expect(report.jsonLine.contains(#""seconds":null"#))
    }
}
