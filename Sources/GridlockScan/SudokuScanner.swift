// A printed Sudoku grid read from a picture, by the rules docs/scanning.md lists:
//
// 1. Ink is what is darker than its neighbourhood (GreyImage). The grid is the largest piece of
//    ink that is about square and has ten lines each way where nine equal cells put them
//    (SudokuGridFinder).
// 2. A cell's mark is the ink inside its four lines whose pieces sit near its middle; a cell
//    with none is blank. Ink away from the middle is an error, not a blank.
// 3. A mark is read as the digit of the nearest example the reader was trained on (DigitModel);
//    one that another digit's examples come close to is read, and flagged as uncertain.
// 4. Two equal digits in a row, a column or a box are both flagged: one was misread. So is a
//    digit under 8 pixels tall, or under 10 and not clearly nearer one digit; a grid whose
//    digits are mostly under 8 is refused.
//
// Nothing is guessed silently: every doubt is an error or a flagged cell.

import GridlockDigits
import GridlockDigitModel

public struct ScannedSudoku: Sendable {
    /// 81 characters, rows top first, `.` for a blank: a line `solve` reads.
    public var line: String
    /// Cells read with low confidence, rows top first.
    public var uncertain: [UncertainDigit]
    /// Each cell's reading, rows top first; nil for a blank.
    public var readings: [DigitModel.Reading?]
    public var lines: SudokuLines

    /// Nine rows of nine, with the boxes spaced out.
    public var grid: String {
        let characters = Array(line)
        return (0..<9).map { row in
            (0..<9).map { String(characters[row * 9 + $0]) }.chunked(3).map { $0.joined(separator: " ") }.joined(separator: " | ")
        }.chunked(3).map { $0.joined(separator: "\n") }.joined(separator: "\n------+-------+------\n")
    }
}

public struct UncertainDigit: Sendable, Hashable, CustomStringConvertible {
    /// 1-based, as people count.
    public var row: Int
    public var column: Int
    public var read: Int
    /// Why the digit is in doubt.
    public var reason: String

    public var description: String { "row \(row), column \(column): read as \(read), \(reason)" }
}

public enum SudokuScanner {
    /// The most pixels a picture is read at: a phone's photo is shrunk to cells of 50 pixels or
    /// so, plenty for a printed digit.
    public static let workingPixels = 800_000

    public static func scan(_ image: RGBAImage, model: DigitModel = TrainedDigitModel.model) -> Result<ScannedSudoku, ScanError> {
        guard image.width >= SudokuGridFinder.minimumSide, image.height >= SudokuGridFinder.minimumSide else {
            return .failure(ScanError("no Sudoku grid found: the picture is \(image.width)x\(image.height) pixels, and a grid needs \(SudokuGridFinder.minimumSide) a side", noGrid: true))
        }
        let grey = GreyImage(image.reduced(toAtMost: workingPixels))
        let window = max(15, min(grey.width, grey.height) / 40) | 1
        let ink = grey.ink(window: window, margin: 24)
        let pieces = InkPieces(ink: ink, width: grey.width, height: grey.height)
        switch SudokuGridFinder.find(pieces) {
        case .failure(let problem): return .failure(problem)
        case .success(let found):
            // The model is asked for only once a grid is found: a build without it still
            // reads Rush Hour boards in auto mode.
            guard !model.examples.isEmpty else { return .failure(ScanError(TrainedDigitModel.missingFontsAdvice)) }
            do {
                return .success(try read(found.lines, grey: grey, ink: ink, model: model))
            } catch let error as ScanError {
                return .failure(error)
            } catch {
                return .failure(ScanError("\(error)"))
            }
        }
    }

    static func read(_ lines: SudokuLines, grey: GreyImage, ink: [Bool], model: DigitModel) throws -> ScannedSudoku {
        var digits = [Int](repeating: 0, count: 81)
        var uncertain: [UncertainDigit] = []
        var readings = [DigitModel.Reading?](repeating: nil, count: 81)
        var heights: [Int] = []
        for row in 0..<9 {
            for column in 0..<9 {
                let cell = lines.cell(row: row, column: column)
                guard let patch = try SudokuCell.mark(in: cell, grey: grey, ink: ink, row: row, column: column) else { continue }
                // Ink in the middle that gives no mark (a light digit on a dark, highlighted
                // cell reads as paper darker than its ink) is no blank: it is refused.
                guard let features = DigitFeatures.of(patch), let reading = model.read(features) else {
                    throw ScanError("row \(row + 1), column \(column + 1): ink in the cell's middle that reads as no mark (a light digit on a dark cell?)")
                }
                digits[row * 9 + column] = reading.digit
                readings[row * 9 + column] = reading
                let height = patch.inkBounds(threshold: 80).map { $0.y1 - $0.y0 } ?? 0
                heights.append(height)
                if let reason = doubt(reading, height: height) {
                    uncertain.append(UncertainDigit(row: row + 1, column: column + 1, read: reading.digit, reason: reason))
                }
            }
        }
        // Where the digits are this small, a faint one can also vanish into a blank, which no
        // flag could mark: the grid is refused, not read.
        let typical = heights.sorted().dropFirst(heights.count / 2).first ?? minimumDigitHeight
        if typical < minimumDigitHeight {
            throw ScanError("the digits are about \(typical) pixels tall, too small to read surely (\(minimumDigitHeight) are needed): use a larger picture")
        }
        for (cell, other) in repeatedDigits(digits) where !uncertain.contains(where: { ($0.row - 1) * 9 + $0.column - 1 == cell }) {
            uncertain.append(UncertainDigit(
                row: cell / 9 + 1, column: cell % 9 + 1, read: digits[cell],
                reason: "and so is row \(other / 9 + 1), column \(other % 9 + 1) in the same \(unitName(cell, other)): one of them is misread, or the grid is no Sudoku"))
        }
        uncertain.sort { ($0.row, $0.column) < ($1.row, $1.column) }
        return ScannedSudoku(line: String(digits.map { $0 == 0 ? "." : Character(String($0)) }), uncertain: uncertain, readings: readings, lines: lines)
    }

    /// A mark shorter than this is read, but flagged: at 6 pixels a serif 2 and 7 are a few
    /// pixels apart.
    public static let minimumDigitHeight = 8
    /// A mark shorter than this must be clearer to be trusted: another digit's examples must
    /// be at least `smallDigitRatio` times as far (not DigitModel's 1.3). At 9 pixels a bold 5
    /// fills in like an 8: a FreeSerif Bold one, a font the reader never saw, was read as 8 at a
    /// ratio of 1.34.
    public static let clearDigitHeight = 10
    public static let smallDigitRatio = 1.6

    /// Why a reading is in doubt; nil when it is sure.
    static func doubt(_ reading: DigitModel.Reading, height: Int) -> String? {
        if height < minimumDigitHeight { return "but it is only \(height) pixels tall (\(minimumDigitHeight) are needed to be sure)" }
        if !reading.confident { return "but it could be \(reading.alternative)" }
        if height < clearDigitHeight, reading.alternativeDistance < reading.distance * smallDigitRatio {
            return "but it could be \(reading.alternative) (at \(height) pixels tall, a digit must be read more clearly)"
        }
        return nil
    }

    /// Each cell whose digit another cell of its row, column or box repeats, with that cell: a
    /// misreading (or a grid no Sudoku has). Both are flagged, as either may be the wrong one.
    static func repeatedDigits(_ digits: [Int]) -> [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        for cell in 0..<81 where digits[cell] != 0 {
            if let other = (0..<81).first(where: { $0 != cell && digits[$0] == digits[cell] && !unitName(cell, $0).isEmpty }) {
                pairs.append((cell, other))
            }
        }
        return pairs
    }

    /// "row", "column" or "box" when two cells share one; empty otherwise.
    static func unitName(_ a: Int, _ b: Int) -> String {
        if a / 9 == b / 9 { return "row" }
        if a % 9 == b % 9 { return "column" }
        if a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3 { return "box" }
        return ""
    }
}

extension Array {
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
