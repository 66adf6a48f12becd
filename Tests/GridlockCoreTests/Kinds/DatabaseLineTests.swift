// The database line's short cut must never change what a line is taken for: wherever it says
// "a Rush Hour line standing alone", the kinds' own rules say the same.

import Foundation
import Testing
@testable import GridlockCore

@Suite struct DatabaseLineTests {
    /// Every line of every puzzle file in the repository: Rush Hour, Sudoku, tiles, samples.
    static func everyLine() throws -> [Substring] {
        let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        var lines: [Substring] = []
        for folder in ["Tests/Fixtures", "data"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let name = enumerator?.nextObject() as? String {
                // The whole database is not in git; its samples are.
                guard name.hasSuffix(".txt"), !name.hasSuffix("rush.txt") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(name), encoding: .utf8)
                lines += text.split(separator: "\n").map { Substring($0) }
            }
        }
        return lines
    }

    @Test("every line the short cut takes, the rules take as a Rush Hour record standing alone")
    func shortCutAgreesWithTheRules() throws {
        let lines = try Self.everyLine()
        var taken = 0
        for line in lines {
            let trimmed = line.trimmingWhitespace
            guard RushHourPuzzle.isDatabaseLine(trimmed) else { continue }
            taken += 1
            #expect(PuzzleKind.isSingleLineRecordByRules(trimmed), "\(line)")
            #expect(PuzzleKind.detectByRules(PuzzleRecord(lines: [NumberedLine(number: 1, text: String(line))])) == .rushhour, "\(line)")
        }
        // The Rush Hour files are almost all database lines; the others none.
        #expect(taken > 20_000, "\(taken) of \(lines.count)")
    }

    @Test("lines that only look alike are left to the rules")
    func nearMissesAreLeftToTheRules() {
        for line in [
            "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419", "7 ooooooooooooAAoooooooooooooooooooooo",
        ] {
            #expect(RushHourPuzzle.isDatabaseLine(line[...]), "\(line)")
        }
        for line in [
            "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLL 58419",  // 35 cells
            "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLoo 58419",  // 37 cells
            "2x ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo",  // not a count
            "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 584x9",
            "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419 extra",
            "1234567890 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo",  // a count of ten digits
            "23 ooBCCCDoBEFF/AAEGooHooGIoHJJGIoKKLLo",
            "{\"kind\":\"rushhour\"}", "", "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo",
        ] {
            #expect(!RushHourPuzzle.isDatabaseLine(line[...]), "\(line)")
        }
    }
}
