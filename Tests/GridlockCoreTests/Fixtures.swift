// The golden corpus: line-oriented files from Tests/Fixtures with known optimal answers.

import Foundation
import GridlockCore

enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func text(_ name: String) -> String {
        let url = directory.appendingPathComponent(name)
        return try! String(contentsOf: url, encoding: .utf8)
    }

    /// Every puzzle of a Rush Hour fixture file, each with its expected MOVES and CLUSTER.
    static func rushHour(_ name: String) -> [RushHourPuzzle] {
        text("rushhour/" + name).split(separator: "\n").map { line in
            try! RushHourPuzzle.parseDatabaseLine(String(line))
        }
    }

    /// The hand-made files: the forty, the Unblock Me boards, the edge cases and the graded twenty.
    static let smallFiles = [
        "fogleman_forty.txt", "unblockme_cameronpit.txt", "edge_cases.txt", "fogleman_app_fixtures20.txt",
    ]

    /// A spread of Fogleman's database: up to 12 lines for every move count from 1 to 60.
    static let spread = "rush18k_spread.txt"
}

extension Fixtures {
    /// Norvig's three sets, all with unique solutions.
    static let sudokuFiles = ["easy50.txt", "top95.txt", "hardest.txt"]

    static func sudoku(_ name: String) -> [SudokuPuzzle] {
        text("sudoku/" + name).split(separator: "\n").filter { !$0.hasPrefix("//") }.map { try! SudokuPuzzle.parseLine(String($0)) }
    }
}

/// A name for a puzzle in test output.
extension RushHourPuzzle {
    var testName: String { label ?? databaseBoard ?? "puzzle" }
}
