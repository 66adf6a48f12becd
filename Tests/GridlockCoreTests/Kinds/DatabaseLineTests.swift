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

    @Test("a database line whose name is numbers stays Rush Hour; a line of mostly numbers is tiles")
    func numbersAreTiles() throws {
        for line in ["23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419 1 2 3", "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419 Beginner 1 of 40"] {
            let record = try PuzzleDocument.onlyRecord(in: line, isSingleLine: PuzzleKind.singleLineTest(kind: nil))
            #expect(PuzzleKind.detect(record) == .rushhour, "\(line)")
            #expect(throws: Never.self) { try ParsedPuzzle.parse(line) }
        }
        for line in ["1 2 3 4 5 6 7 x 0", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 ?"] {
            let record = try PuzzleDocument.onlyRecord(in: line, isSingleLine: PuzzleKind.singleLineTest(kind: nil))
            #expect(PuzzleKind.detect(record) == .tiles, "\(line)")
        }
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

    /// The general reading of a job's text, without the short cut.
    static func generalParse(_ text: String, firstLine: Int) -> Result<RushHourPuzzle?, PuzzleInputError> {
        Result { () throws(PuzzleInputError) in
            let record = try PuzzleDocument.onlyRecord(in: text, firstLine: firstLine, isSingleLine: PuzzleKind.singleLineTest(kind: nil))
            return try ParsedPuzzle.parse(record).rushHour
        }
    }

    @Test("a job's database line read straight away is the puzzle, or the error, of the general reading")
    func jobShortCutAgreesWithTheGeneralReading() throws {
        let lines = try Self.everyLine().filter { RushHourPuzzle.isDatabaseLine($0.trimmingWhitespace) }.prefix(3_000).map(String.init)
        // Lines the short cut takes whose boards are wrong: the errors must match too.
        let broken = [
            "3 oooooooooooooooooooooooooooooooooooo", "3 AAAoooooooooooooooooooooooooooooooooo".dropLast().description,
            "5 ooooooooooooAAoooooooooooooooooooooo 12", "2 oooBoooooBooAAoCoooooooooooooooooooo",
        ]
        for line in lines + broken {
            let short = Result { () throws(PuzzleInputError) in try ParsedPuzzle.parse(line, firstLine: 9).rushHour }
            switch (short, Self.generalParse(line, firstLine: 9)) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(line)")
            case (.failure(let a), .failure(let b)): #expect(a.description == b.description, "\(line)")
            default: Issue.record("\(line): the short cut and the general reading disagree")
            }
        }
    }
}
