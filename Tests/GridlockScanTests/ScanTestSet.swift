// The varied test set of issue 45: N pictures of Rush Hour boards, each drawn in one of the ten
// BoardStyles and captured as a screenshot or a photo, all fixed by one seed. Styles take turns
// (case i has style i mod 10); one round in six of each style is a photo, staggered so every
// style gets its photos and about a sixth of any stretch of cases is photos. The boards are
// ScanAccuracyTests.boards (database boards, half mirrored, some with fixed blocks, and random
// boards of 4x4 to 8x8). A case is drawn only when asked for, so 1,200 pictures never sit in
// memory together, and case i is the same picture whichever cases were drawn before it.

import Foundation
import GridlockCore
import GridlockScan

struct ScanCase {
    let index: Int
    let puzzle: RushHourPuzzle
    let style: BoardStyle
    let capture: Capture
    let image: RGBAImage
    /// The picture's tile (a cell's side) as drawn, before the capture rescaled it.
    let tile: Int

    /// `NNNN-style-capture`, the file name without its extension.
    var name: String { String(format: "%04d-%@-%@", index, style.rawValue, capture.rawValue) }

    /// The board's grid text on one line, rows joined by `|` (the chute marked `<` or `>`).
    var answer: String { puzzle.gridText().split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "|") }
}

struct ScanTestSet: Sequence {
    let count: Int
    let seed: UInt64
    let boards: [RushHourPuzzle]

    init(count: Int, seed: UInt64 = 45) throws {
        precondition(count >= 0, "a test set of \(count) pictures")
        self.count = count
        self.seed = seed
        boards = try ScanAccuracyTests.boards(count)
    }

    static func style(of index: Int) -> BoardStyle { BoardStyle.allCases[index % BoardStyle.allCases.count] }

    static func capture(of index: Int) -> Capture {
        let styles = BoardStyle.allCases.count
        return (index / styles + index % styles) % 6 == 0 ? .photo : .screenshot
    }

    /// Case `index` (0..<count), drawn now from its own random stream.
    func `case`(_ index: Int) throws -> ScanCase {
        precondition(index >= 0 && index < count, "case \(index) of \(count)")
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        _ = random.next()
        let style = Self.style(of: index), capture = Self.capture(of: index)
        let tile = 48 + random.below(63)
        let drawn = StyledBoard.paint(boards[index], style: style, tile: tile, random: &random)
        let image = try capture.apply(drawn, random: &random)
        return ScanCase(index: index, puzzle: boards[index], style: style, capture: capture, image: image, tile: tile)
    }

    func makeIterator() -> Iterator { Iterator(set: self) }

    /// Draws each case as it is reached; a case that cannot be drawn (a JPEG codec error) ends
    /// the iteration with a precondition failure, as it is a broken test, not a hard picture.
    struct Iterator: IteratorProtocol {
        let set: ScanTestSet
        var position = 0

        mutating func next() -> ScanCase? {
            guard position < set.count else { return nil }
            defer { position += 1 }
            do { return try set.case(position) } catch { preconditionFailure("case \(position) could not be drawn: \(error)") }
        }
    }
}
