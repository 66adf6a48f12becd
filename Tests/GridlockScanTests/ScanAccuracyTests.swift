// The scanner against boards drawn by two unlike renderers (GridlockDrawing's, and this
// target's PaintedBoard), each picture perturbed (scaled, JPEG, noise, a phone's screen):
// database boards (some mirrored, so the chute is on the left; some with fixed blocks) and
// random boards of 4x4 to 8x8. Every picture must scan back to exactly its board, or fail with
// a clear error: a wrong board given as right fails the test at once. The share read is
// printed per renderer and perturbation. GRIDLOCK_SCAN_BOARDS sets how many boards (the
// figures in docs/benchmarks.md come from 1,000 with a release build).

import Foundation
import GridlockCore
import GridlockDrawing
import GridlockScan
import PNGFile
import Testing

@Suite("scanning Rush Hour pictures")
struct ScanAccuracyTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A board as the scanner must give it back: its size, chute, prisoner, blocks and fixed
    /// blocks, whatever their names.
    static func shape(_ puzzle: RushHourPuzzle) -> String {
        let prisoner = puzzle.prisoner
        let others = puzzle.blocks.enumerated().filter { $0.offset != puzzle.prisonerIndex }.map { "\($0.element.orientation)\($0.element.length)@\($0.element.row),\($0.element.column)" }.sorted()
        return "\(puzzle.width)x\(puzzle.height) exit \(puzzle.exit.side)\(puzzle.exit.row) A@\(prisoner.row),\(prisoner.column)/\(prisoner.length) " + others.joined(separator: " ")
    }

    /// The boards: database lines, every other one mirrored, and random boards of other sizes.
    static func boards(_ count: Int) throws -> [RushHourPuzzle] {
        let lines = try String(contentsOf: repository.appendingPathComponent("data/rushhour/rush_every32.txt"), encoding: .utf8).split(separator: "\n")
        var random = SplitMix64(seed: 19)
        var boards: [RushHourPuzzle] = []
        var walls = 0
        for index in 0..<count {
            if index % 4 == 3, let board = randomBoard(&random) {
                boards.append(board)
                continue
            }
            // Database boards with fixed blocks are rare: take them where they come.
            var line = lines[random.below(lines.count)]
            if walls * 8 < index, let walled = lines.first(where: { $0.contains("x") && !boards.contains(try! RushHourPuzzle.parseDatabaseLine(String($0))) }) {
                line = walled
                walls += 1
            }
            let puzzle = try RushHourPuzzle.parseDatabaseLine(String(line))
            boards.append(index % 2 == 0 ? puzzle : mirrored(puzzle))
        }
        return boards
    }

    static func mirrored(_ puzzle: RushHourPuzzle) -> RushHourPuzzle {
        let blocks = puzzle.blocks.map { block in
            var block = block
            let columns = block.orientation == .horizontal ? block.length : 1
            block.column = puzzle.width - block.column - columns
            return block
        }
        return try! RushHourPuzzle.validated(
            width: puzzle.width, height: puzzle.height, exit: RushHourExit(side: puzzle.exit.side == .left ? .right : .left, row: puzzle.exit.row),
            blocks: blocks)
    }

    /// Blocks dropped at random on a board of 4x4 to 8x8 (the prisoner first, in the chute's row).
    static func randomBoard(_ random: inout SplitMix64) -> RushHourPuzzle? {
        let width = 4 + random.below(5), height = 4 + random.below(5)
        let exit = RushHourExit(side: random.below(2) == 0 ? .left : .right, row: random.below(height))
        var taken = Set<BoardCell>()
        var blocks: [RushHourBlock] = []
        func place(_ block: RushHourBlock) {
            let cells = block.cells
            guard cells.allSatisfy({ $0.row < height && $0.column < width && !taken.contains($0) }) else { return }
            taken.formUnion(cells)
            blocks.append(block)
        }
        place(RushHourBlock(name: "A", orientation: .horizontal, length: 2, row: exit.row, column: random.below(width - 1)))
        let names = Array("BCDEFGHIJKLMNOPQRSTUVWYZ")
        for attempt in 0..<40 {
            if random.below(10) == 0 {
                place(RushHourBlock(name: "x", orientation: .fixed, length: 1, row: random.below(height), column: random.below(width)))
                continue
            }
            let vertical = random.below(2) == 0
            let name = names[blocks.count % names.count]
            // No other horizontal block in the prisoner's row: it would block the chute for good.
            let row = random.below(height)
            if !vertical, row == exit.row { continue }
            place(RushHourBlock(name: name, orientation: vertical ? .vertical : .horizontal, length: 2 + random.below(2), row: row, column: random.below(width)))
            _ = attempt
        }
        return try? RushHourPuzzle.validated(width: width, height: height, exit: exit, blocks: blocks)
    }

    enum Renderer: String, CaseIterable {
        case gridlock = "gridlock render"
        case painted = "the tests' painter"
    }

    static func picture(_ puzzle: RushHourPuzzle, by renderer: Renderer, random: inout SplitMix64) -> RGBAImage {
        switch renderer {
        case .gridlock:
            let raster = Raster(BoardScene.scene(.rushHour(puzzle), title: ""), scale: 0.6 + Double(random.below(5)) * 0.2)
            return RGBAImage(width: raster.width, height: raster.height, pixels: raster.pixels)
        case .painted:
            let painter = PaintedBoard(
                tile: 28 + random.below(30), random: SplitMix64(seed: random.next()), roundedCorners: random.below(2) == 0,
                stripes: random.below(2) == 0, phone: random.below(3) == 0)
            return painter.paint(puzzle)
        }
    }

    @Test("every picture scans back to its board, or is refused with a reason; never a wrong board")
    func accuracy() throws {
        let count = ProcessInfo.processInfo.environment["GRIDLOCK_SCAN_BOARDS"].flatMap(Int.init) ?? 44
        let boards = try Self.boards(count)
        var random = SplitMix64(seed: 7)
        var read: [String: (right: Int, of: Int)] = [:]
        var refusals: [String] = []
        let perturbations = Perturbation.allCases
        for (index, board) in boards.enumerated() {
            for renderer in Renderer.allCases {
                let perturbation = perturbations[(index + (renderer == .painted ? 5 : 0)) % perturbations.count]
                let image = try perturbation.apply(Self.picture(board, by: renderer, random: &random), random: &random)
                let key = "\(renderer.rawValue) | \(perturbation)"
                // GRIDLOCK_SCAN_SAVE=DIR keeps every picture (for timing `gridlock scan DIR`).
                if let directory = ProcessInfo.processInfo.environment["GRIDLOCK_SCAN_SAVE"] {
                    let bytes = try PNGFile.encode(width: image.width, height: image.height, rgba: image.pixels)
                    let name = String(format: "%04d-%@.png", index, renderer == .painted ? "painted" : "gridlock")
                    try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
                }
                read[key, default: (0, 0)].of += 1
                switch RushHourScanner.scan(image) {
                case .success(let scanned):
                    #expect(Self.shape(scanned.puzzle) == Self.shape(board), "misread, \(key):\n\(scanned.grid)\nexpected \(board.gridText())")
                    if Self.shape(scanned.puzzle) == Self.shape(board) { read[key]!.right += 1 }
                case .failure(let error):
                    refusals.append("\(key): board \(index) (\(board.width)x\(board.height)): \(error)")
                    // GRIDLOCK_SCAN_FAILURES=DIR keeps each refused picture, to look at.
                    if let directory = ProcessInfo.processInfo.environment["GRIDLOCK_SCAN_FAILURES"] {
                        let bytes = try PNGFile.encode(width: image.width, height: image.height, rgba: image.pixels)
                        try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent("board\(index)-\(renderer == .painted ? "painted" : "gridlock").png"))
                    }
                }
            }
        }
        let total = read.values.reduce((0, 0)) { ($0.0 + $1.right, $0.1 + $1.of) }
        var report = "scan accuracy: \(total.0) of \(total.1) pictures read exactly (\(String(format: "%.1f", 100 * Double(total.0) / Double(max(1, total.1))))%)\n"
        for key in read.keys.sorted() { report += "  \(key): \(read[key]!.right) of \(read[key]!.of)\n" }
        for refusal in refusals.prefix(30) { report += "  refused: \(refusal)\n" }
        print(report)
        // The structural reader (issue 45) reads 90% of 400 of these where the colour-only one
        // read 99.7%: it refuses more of the small and blurred pictures, and misreads none.
        #expect(Double(total.0) >= 0.85 * Double(total.1), "\(report)")
    }
}
