// The sink's quick Rush Hour replay held to the validator: it confirms every optimal answer of
// the spread, and never confirms what the validator refuses: broken answers, broken boards.

import Testing
import GridlockCore

@Suite("Rush Hour quick replay")
struct RushHourQuickReplayTests {
    /// The validator's judgement, as `gridlock check` reaches it: nil when the answer solves the line.
    static func validatorRefusal(_ solution: String, moves: Int, line: String) -> String? {
        guard let puzzle = try? ParsedPuzzle.parse(line, kind: .rushhour) else { return "the puzzle cannot be read" }
        let texts = solution.isEmpty ? [] : solution.split(separator: ", ", omittingEmptySubsequences: false).map(String.init)
        guard texts.count == moves else { return "\(moves) moves claimed, \(texts.count) listed" }
        guard let replayed = try? AnswerCheck.moves(texts, for: puzzle) else { return "unreadable moves" }
        return puzzle.validationFailure(of: SolveResult(status: .solved, solution: replayed, statistics: SearchStatistics()))
    }

    /// Every 6th line of the spread (1 to 60 moves), with bfs's answer.
    static let solved: [(line: String, solution: String, moves: Int)] = Fixtures.text("rushhour/" + Fixtures.spread)
        .split(separator: "\n").enumerated().filter { $0.offset % 6 == 0 }.map { String($0.element) }.map { line in
            let result = try! ParsedPuzzle.parse(line, kind: .rushhour).solve(with: "bfs", options: SolveOptions())!
            return (line, result.solution.map(\.text).joined(separator: ", "), result.moves!)
        }

    @Test("bfs's answers on the spread are confirmed, as the validator confirms them")
    func confirmsOptimalAnswers() {
        #expect(Self.solved.count >= 99)
        for (line, solution, moves) in Self.solved {
            #expect(Self.validatorRefusal(solution, moves: moves, line: line) == nil)
            #expect(RushHourQuickReplay.confirms(solution, moves: moves, onDatabaseLine: line), "\(line): \(solution)")
        }
    }

    @Test("no broken answer is confirmed that the validator refuses; most are refused by both")
    func neverConfirmsWhatTheValidatorRefuses() {
        var random = SplitMix64(seed: 48)
        var refusedByBoth = 0
        var tried = 0
        let edits: [(String) -> String] = [
            { $0.replacingOccurrences(of: "right", with: "left") },
            { $0.replacingOccurrences(of: "down", with: "up") },
            { $0.replacingOccurrences(of: " 1", with: " 2") },
            { $0.replacingOccurrences(of: " 2", with: " 1") },
            { $0.replacingOccurrences(of: "A ", with: "B ") },
            { $0 + ", A left 1" },
            { $0.replacingOccurrences(of: ", ", with: ",") },
            { String($0.dropLast()) },
            { _ in "validated" },
        ]
        for (line, solution, moves) in Self.solved {
            for edit in edits {
                let broken = edit(solution)
                guard broken != solution else { continue }
                for claimed in [moves, moves + 1, moves - 1] where claimed >= 0 {
                    tried += 1
                    let quick = RushHourQuickReplay.confirms(broken, moves: claimed, onDatabaseLine: line)
                    let refusal = Self.validatorRefusal(broken, moves: claimed, line: line)
                    #expect(!quick || refusal == nil, "confirmed '\(broken)' (\(claimed) moves) on \(line): \(refusal ?? "")")
                    if !quick, refusal != nil { refusedByBoth += 1 }
                }
            }
            // A move swapped for a random one: legal or not, the two agree on confirming.
            var texts = solution.split(separator: ", ").map(String.init)
            guard !texts.isEmpty else { continue }
            let letters = "ABCDEFGHIJKLMNOPQ", directions = ["up", "down", "left", "right"]
            texts[Int(random.next() % UInt64(texts.count))] =
                "\(letters.randomElement(using: &random)!) \(directions.randomElement(using: &random)!) \(Int.random(in: 1...4, using: &random))"
            let swapped = texts.joined(separator: ", ")
            tried += 1
            if RushHourQuickReplay.confirms(swapped, moves: texts.count, onDatabaseLine: line) {
                #expect(Self.validatorRefusal(swapped, moves: texts.count, line: line) == nil, "\(line): \(swapped)")
            }
        }
        #expect(refusedByBoth > tried / 2)
    }

    @Test("no broken board is confirmed that the reader or the validator refuses")
    func neverConfirmsOnBrokenBoards() {
        var random = SplitMix64(seed: 7)
        let alphabet = Array("oooxABCDEFGHIJKLM.#a1 ".utf8)
        var confirmedAfterEdit = 0
        for (line, solution, moves) in Self.solved {
            for _ in 0..<20 {
                var bytes = Array(line.utf8)
                bytes[Int(random.next() % UInt64(bytes.count))] = alphabet.randomElement(using: &random)!
                let edited = String(decoding: bytes, as: UTF8.self)
                guard RushHourQuickReplay.confirms(solution, moves: moves, onDatabaseLine: edited) else { continue }
                confirmedAfterEdit += 1
                #expect(Self.validatorRefusal(solution, moves: moves, line: edited) == nil, "confirmed on \(edited): \(solution)")
            }
        }
        // Some edits leave the answer good (an empty cell no move crosses, a digit of a count).
        #expect(confirmedAfterEdit > 0)
    }

    @Test("another shape of line, a label, a wrong count or trailing text: not confirmed, left to the general path")
    func leavesOtherShapesToTheGeneralPath() {
        let line = "01 ooooooooooooAAoooooooooooooooooooooo 5"
        #expect(RushHourQuickReplay.confirms("A right 4", moves: 1, onDatabaseLine: line))
        #expect(RushHourQuickReplay.confirms("A right 4", moves: 1, onDatabaseLine: "01 ooooooooooooAAoooooooooooooooooooooo"))
        #expect(!RushHourQuickReplay.confirms("A right 4", moves: 1, onDatabaseLine: line + " label"))
        #expect(!RushHourQuickReplay.confirms("A right 4", moves: 1, onDatabaseLine: "ooooooooooooAAoooooooooooooooooooooo"))
        #expect(!RushHourQuickReplay.confirms("A right 4", moves: 2, onDatabaseLine: line))
        #expect(!RushHourQuickReplay.confirms("A right 4", moves: 0, onDatabaseLine: line))
        #expect(!RushHourQuickReplay.confirms("A right 4, ", moves: 1, onDatabaseLine: line))
        #expect(!RushHourQuickReplay.confirms("A right 3", moves: 1, onDatabaseLine: line))
        #expect(!RushHourQuickReplay.confirms("A right 5", moves: 1, onDatabaseLine: line))
        #expect(!RushHourQuickReplay.confirms("A right 2, A right 2", moves: 1, onDatabaseLine: line))
        #expect(RushHourQuickReplay.confirms("A right 2, A right 2", moves: 2, onDatabaseLine: line))
        #expect(!RushHourQuickReplay.confirms("A down 1", moves: 1, onDatabaseLine: line))
        // Already out: no move at all.
        #expect(RushHourQuickReplay.confirms("", moves: 0, onDatabaseLine: "01 ooooooooooooooooAAoooooooooooooooooo 5"))
        #expect(!RushHourQuickReplay.confirms("", moves: 0, onDatabaseLine: line))
        // A 3-long prisoner: the readers refuse the board, so nothing on it is confirmed.
        #expect(!RushHourQuickReplay.confirms("", moves: 0, onDatabaseLine: "01 oooooooooooooooAAAoooooooooooooooooo"))
        #expect(!RushHourQuickReplay.confirms("A right 3", moves: 1, onDatabaseLine: "01 ooooooooooooAAAooooooooooooooooooooo"))
        #expect((try? ParsedPuzzle.parse("01 ooooooooooooAAAooooooooooooooooooooo", kind: .rushhour)) == nil)
        #expect(RushHourQuickReplay.expectedMovesIfConfirmed("A right 4", moves: 1, onDatabaseLine: "000000007 ooooooooooooAAoooooooooooooooooooooo") == 7)
    }
}
