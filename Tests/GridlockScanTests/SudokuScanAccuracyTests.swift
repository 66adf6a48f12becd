// The Sudoku scanner against grids from Norvig's sets (easy50, top95, hardest; relabelled, so
// each is new), printed by PrintedSudoku in fonts the reader was trained on and fonts it never
// saw, each picture perturbed (scaled, JPEG, noise, a phone's screen). A digit read wrong must
// come flagged; one given as sure fails the test at once. The shares read are printed per font
// and perturbation. GRIDLOCK_SUDOKU_GRIDS sets how many grids (docs/benchmarks.md's figures
// come from 500), GRIDLOCK_SUDOKU_FONTS which fonts (paths under /usr/share/fonts, by commas).

import Foundation
import FontRaster
import GridlockCore
import GridlockDigitModel
import GridlockScan
import PNGFile
import Testing

@Suite("scanning printed Sudoku grids")
struct SudokuScanAccuracyTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Typefaces the grids are printed in. The reader trained on the first four; the others are
    /// held out (scripts/setup installs them: fonts-freefont-ttf, fonts-urw-base35).
    static let fonts = ProcessInfo.processInfo.environment["GRIDLOCK_SUDOKU_FONTS"].map { $0.split(separator: ",").map(String.init) } ?? [
        "truetype/dejavu/DejaVuSans.ttf", "truetype/liberation/LiberationSerif-Regular.ttf",
        "truetype/liberation/LiberationMono-Bold.ttf", "truetype/dejavu/DejaVuSerif-Bold.ttf",
        "truetype/freefont/FreeSans.ttf", "truetype/freefont/FreeSerif.ttf",
        "opentype/urw-base35/NimbusRoman-Regular.otf", "opentype/urw-base35/C059-Roman.otf",
    ]

    static func face(_ font: String) throws -> FontFace {
        let path = "/usr/share/fonts/" + font
        guard FileManager.default.fileExists(atPath: path) else {
            throw MissingFont(description: "\(path) is not installed: run scripts/setup, which installs the fonts the tests print with")
        }
        return try FontFace(path: path)
    }

    /// Norvig's grids, each with its digits relabelled at random, `count` in all.
    static func grids(_ count: Int) throws -> [String] {
        var lines: [String] = []
        for name in ["easy50", "top95", "hardest"] {
            let text = try String(contentsOf: repository.appendingPathComponent("Tests/Fixtures/sudoku/\(name).txt"), encoding: .utf8)
            lines += text.split(separator: "\n").map(String.init).filter { $0.count == 81 }
        }
        var random = SplitMix64(seed: 16)
        return (0..<count).map { index in
            let relabel = random.shuffled(Array("123456789"))
            return String(lines[index % lines.count].map { $0.wholeNumberValue.map { $0 > 0 ? relabel[$0 - 1] : "." } ?? "." })
        }
    }

    @Test("every printed digit is read right, or flagged; never a wrong digit given as sure")
    func accuracy() throws {
        let count = ProcessInfo.processInfo.environment["GRIDLOCK_SUDOKU_GRIDS"].flatMap(Int.init) ?? 88
        let grids = try Self.grids(count)
        let faces = try Self.fonts.map(Self.face)
        let trained = Set(TrainedDigitModel.fontFiles)
        var random = SplitMix64(seed: 5)
        var byFont: [String: Tally] = [:], byPerturbation: [String: Tally] = [:]
        var problems: [String] = []
        var ratios: [(Double, Double, Bool)] = []
        let perturbations = Perturbation.allCases
        for (index, grid) in grids.enumerated() {
            let font = Self.fonts[index % Self.fonts.count]
            let name = (font as NSString).lastPathComponent + (trained.contains((font as NSString).lastPathComponent) ? "" : " (held out)")
            let perturbation = perturbations[(index / Self.fonts.count) % perturbations.count]
            let style = PrintedSudoku(random: &random)
            let image = try perturbation.apply(try style.print(grid, in: faces[index % faces.count], random: &random), random: &random)
            if let directory = ProcessInfo.processInfo.environment["GRIDLOCK_SCAN_SAVE"] {
                let bytes = try PNGFile.encode(width: image.width, height: image.height, rgba: image.pixels)
                try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(String(format: "sudoku-%04d.png", index)))
            }
            var tally = Tally(grids: 1)
            let expected = Array(grid)
            tally.digits = expected.filter { $0 != "." }.count
            switch SudokuScanner.scan(image) {
            case .success(let scanned):
                let read = Array(scanned.line)
                let flagged = Set(scanned.uncertain.map { ($0.row - 1) * 9 + $0.column - 1 })
                tally.flagged = flagged.count
                for cell in 0..<81 where read[cell] != expected[cell] {
                    // A blank read as a digit, or a digit read otherwise, must be flagged.
                    #expect(flagged.contains(cell), "grid \(index) (\(name), \(perturbation)): row \(cell / 9 + 1), column \(cell % 9 + 1) read as \(read[cell]), printed \(expected[cell]), with no flag (\(scanned.readings[cell].map { "\($0)" } ?? "a blank"))")
                }
                for cell in 0..<81 where expected[cell] != "." {
                    if let reading = scanned.readings[cell] {
                        ratios.append((reading.alternativeDistance / max(1, reading.distance), reading.distance, read[cell] == expected[cell]))
                    }
                }
                tally.digitsRight = (0..<81).filter { expected[$0] != "." && read[$0] == expected[$0] }.count
                if read == expected && flagged.isEmpty { tally.gridsExact = 1 } else {
                    problems.append("grid \(index) (\(name), \(perturbation)): " + scanned.uncertain.map { "\($0); printed \(expected[($0.row - 1) * 9 + $0.column - 1])" }.joined(separator: "; "))
                }
            case .failure(let error):
                tally.refused = 1
                problems.append("grid \(index) (\(name), \(perturbation)): refused: \(error)")
                if let directory = ProcessInfo.processInfo.environment["GRIDLOCK_SCAN_FAILURES"] {
                    let bytes = try PNGFile.encode(width: image.width, height: image.height, rgba: image.pixels)
                    try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent("sudoku-\(index).png"))
                }
            }
            byFont[name, default: Tally()].add(tally)
            byPerturbation["\(perturbation)", default: Tally()].add(tally)
        }
        let total = byFont.values.reduce(into: Tally()) { $0.add($1) }
        func line(_ key: String, _ tally: Tally) -> String {
            "  \(key): digits \(tally.digitsRight) of \(tally.digits), grids \(tally.gridsExact) of \(tally.grids), \(tally.flagged) flagged, \(tally.refused) refused\n"
        }
        var report = "Sudoku scan accuracy:\n" + line("all", total)
        for key in byFont.keys.sorted() { report += line(key, byFont[key]!) }
        for key in byPerturbation.keys.sorted() { report += line(key, byPerturbation[key]!) }
        for problem in problems.prefix(30) { report += "  \(problem)\n" }
        print(report)
        if ProcessInfo.processInfo.environment["GRIDLOCK_SUDOKU_RATIOS"] != nil {
            for (ratio, distance, right) in ratios.sorted(by: { $0.0 < $1.0 }).prefix(150) { print(String(format: "ratio %.3f distance %.0f %@", ratio, distance, right ? "right" : "WRONG")) }
            print("largest distance right:", ratios.filter(\.2).map(\.1).max() ?? 0, "wrong distances:", ratios.filter { !$0.2 }.map(\.1))
        }
        // The issue's bars: 99% of digits, 95% of grids, on 500 grids (measured: 99.98% and 97%).
        // The test command's 88 (each font under each perturbation once) may miss a grid or two
        // more: a flagged digit costs its whole grid.
        #expect(total.digitsRight * 100 >= total.digits * 99, "\(report)")
        #expect(total.gridsExact * 100 >= total.grids * (count >= 500 ? 95 : 90), "\(report)")
    }
}

/// What a set of scanned grids came to.
struct Tally {
    var digits = 0, digitsRight = 0, flagged = 0, grids = 0, gridsExact = 0, refused = 0

    mutating func add(_ other: Tally) {
        digits += other.digits; digitsRight += other.digitsRight; flagged += other.flagged
        grids += other.grids; gridsExact += other.gridsExact; refused += other.refused
    }
}

struct MissingFont: Error, CustomStringConvertible {
    let description: String
}
