// A board photographed at a slant: its frame found as a quadrilateral, rectified, and read; and
// the rectified picture's padding never taken for a frame.

import Foundation
import GridlockCore
import Testing
@testable import GridlockScan

@Suite struct FrameQuadTests {
    /// The picture's corners, taken to a trapezoid whose far side is `narrowing` shorter (a
    /// camera tilted about the horizontal), turned by `turn` degrees, placed on black with room
    /// round it.
    static func slanted(_ image: RGBAImage, narrowing: Double, turn: Double) -> (RGBAImage, [(x: Double, y: Double)]) {
        let w = Double(image.width), h = Double(image.height)
        let inset = w * narrowing / 2
        let flat = [(x: inset, y: 0.0), (x: w - inset, y: 0), (x: w, y: h), (x: 0, y: h)]
        let angle = turn * .pi / 180, room = w * 0.15
        let seen = flat.map { p -> (x: Double, y: Double) in
            let x = p.x - w / 2, y = p.y - h / 2
            return (x * cos(angle) - y * sin(angle) + w / 2 + room, x * sin(angle) + y * cos(angle) + h / 2 + room)
        }
        let corners = [(x: 0.0, y: 0.0), (x: w, y: 0), (x: w, y: h), (x: 0, y: h)]
        let back = Homography(from: seen, to: corners)
        return (back.resample(image, width: Int(w + 2 * room), height: Int(h + 2 * room), background: RGB(20, 20, 24)), seen)
    }

    @Test("a light quadrilateral on black, its sides slanted up to 6 degrees: found, each corner within 2 pixels")
    func quadrilateralFound() {
        let white = RGBAImage(width: 300, height: 300, pixels: [UInt8](repeating: 255, count: 300 * 300 * 4))
        let (picture, corners) = Self.slanted(white, narrowing: 0.16, turn: 3)
        // Among the quadrilaterals the scanner tries, not anywhere in the list.
        let found = FrameQuad.candidates(in: EdgeMap(picture)).prefix(FrameQuad.quadsTried)
        let match = found.first { quad in
            zip(quad.corners, corners).allSatisfy { FrameQuad.distance($0, $1) <= 2 }
        }
        #expect(match != nil, "corners \(corners); found \(found.prefix(3).map(\.corners))")
    }

    @Test("where a horizontal and a vertical line cross, at any slant either way")
    func linesMeet() {
        for (a, b) in [(0.0, 0.0), (7.5, -4.0), (-11.0, 9.5)] {
            // Both lines through (120, 80): rho from each one's equation.
            let x = 120.0, y = 80.0
            let ra = a * .pi / 180, rb = b * .pi / 180
            let horizontal = FrameQuad.Line(slant: a, rho: y * cos(ra) - x * sin(ra), votes: 0)
            let vertical = FrameQuad.Line(slant: b, rho: x * cos(rb) + y * sin(rb), votes: 0)
            let point = FrameQuad.meet(horizontal, vertical)
            #expect(abs(point.x - x) < 1e-6 && abs(point.y - y) < 1e-6, "\(a), \(b): \(point)")
        }
    }

    @Test("photos of the varied test set read exactly through their frame rectified that do not read as they are")
    func photosReadRectified() throws {
        let set = try ScanTestSet(count: 1200)
        let photos = try (0..<set.count).filter { ScanTestSet.capture(of: $0) == .photo }.prefix(30).map { try set.case($0) }
        var exact = 0, rectifiedOnly = 0, wrong: [String] = []
        for photo in photos {
            guard case .success(let scanned) = RushHourScanner.scan(photo.image) else { continue }
            guard ScanAccuracyTests.shape(scanned.puzzle) == ScanAccuracyTests.shape(photo.puzzle) else {
                wrong.append(photo.name)
                continue
            }
            exact += 1
            let prepared = RushHourScanner.prepared(photo.image)
            let straight = RushHourScanner.attempt(in: prepared, edges: EdgeMap(prepared))
            if case .failure = straight.reading { rectifiedOnly += 1 }
        }
        // Of the set's 200 photos, 37 read exactly; 2 without rectifying.
        #expect(rectifiedOnly >= 2, "\(exact) of \(photos.count) photos read exactly, \(rectifiedOnly) only rectified")
        #expect(wrong.isEmpty, "read wrong at exit 0: \(wrong)")
    }

    @Test("a slanted board cut at its frame is refused: the rectified picture's padding is no frame")
    func cutBoardRefused() throws {
        let (image, _) = try RushHourScanRuleTests.painted()
        let (photo, corners) = Self.slanted(image, narrowing: 0.14, turn: 2)
        // The photo cut 40 pixels inside the picture's left edge: through the frame, or past it.
        let cut = Int(max(corners[0].x, corners[3].x)) + 40
        var pixels: [UInt8] = []
        for y in 0..<photo.height { pixels += photo.pixels[(y * photo.width + cut) * 4..<(y + 1) * photo.width * 4] }
        let cropped = RGBAImage(width: photo.width - cut, height: photo.height, pixels: pixels)
        let refusal = try #require(RushHourScanRuleTests.refusal(cropped), "a board read from a cut picture")
        #expect(refusal.contains("the picture ends at the board's") || refusal.contains("no board found"), "\(refusal)")
    }

    @Test("a board, or the room round it that the rules read, mapped past the photo's edge is cut on that side")
    func cutSides() {
        let board = BoardGrid(left: 70, top: 20, right: 370, bottom: 320, columns: 6, rows: 6, score: 1)
        // Tiles of 50 pixels: 0.3 of a tile (15 pixels) is room enough on every side.
        #expect(RushHourScanner.cutSide(board, map: .identity, width: 440, height: 340) == nil)
        #expect(RushHourScanner.cutSide(board, map: .identity, width: 386, height: 340) == nil)
        let shifted = Homography(m: [1, 0, -60, 0, 1, 0, 0, 0, 1])
        #expect(RushHourScanner.cutSide(board, map: shifted, width: 440, height: 340) == .left)
        #expect(RushHourScanner.cutSide(board, map: .identity, width: 384, height: 340) == .right)
        #expect(RushHourScanner.cutSide(board, map: .identity, width: 440, height: 330) == .bottom)
    }

    @Test("past the projection's horizon nothing is taken from the photo: no mirrored pixels, no point, a cut board")
    func pastTheHorizon() throws {
        // Weight 1 - y/100: the horizon is the row y = 100 of the output.
        let tilted = Homography(m: [-1, 0, 0, 0, -0.1, 0, 0, -0.01, 1])
        #expect(tilted.applyInFront(10, 150) == nil)
        #expect(tilted.applyInFront(10, 50) != nil)
        // Below the horizon this map lands inside the white source again, mirrored
        // (10.5, 150.5 goes to 20.8, 29.8): it must show the background.
        let white = RGBAImage(width: 100, height: 100, pixels: [UInt8](repeating: 255, count: 100 * 100 * 4))
        let out = tilted.resample(white, width: 100, height: 200, background: RGB(200, 0, 0))
        #expect(Array(out.pixels[(150 * 100 + 10) * 4..<(150 * 100 + 10) * 4 + 3]) == [200, 0, 0])
        let board = BoardGrid(left: 70, top: 20, right: 370, bottom: 320, columns: 6, rows: 6, score: 1)
        let beyond = Homography(m: [1, 0, 0, 0, 1, 0, 0, -0.005, 1])
        #expect(RushHourScanner.cutSide(board, map: beyond, width: 10_000, height: 10_000) == .horizon)
        // Past the horizon the old map put (10, 150) at (20.8, 29.8), inside a 100 x 100 photo.
        #expect(!PhotoBounds(back: tilted, width: 100, height: 100).contains(10, 150))
        #expect(PhotoBounds(back: tilted, width: 100, height: 100).contains(-20, -100))
    }

    @Test("both sides' strips are read to one depth: a side cut short hides its arrow, and the other side's deeper strip is no chute")
    func chuteStripsToOneDepth() {
        // The picture ends 18 pixels right of the board, inside its frame: the arrow beyond is
        // cut off. Left of row 2, 25 to 60 pixels out, something dark (a hand, a box).
        let board = BoardGrid(left: 70, top: 20, right: 370, bottom: 320, columns: 6, rows: 6, score: 1)
        var pixels = [UInt8](repeating: 120, count: 388 * 340 * 4)
        for y in 120..<170 { for x in 10..<45 { pixels.replaceSubrange((y * 388 + x) * 4..<(y * 388 + x) * 4 + 3, with: [20, 20, 20]) } }
        let image = RGBAImage(width: 388, height: 340, pixels: pixels)
        #expect(throws: ScanError.self) { try RushHourChute.find(board, image) }
    }

    /// A rectified copy whose photo was cut at a slant left of the board: the padding fills
    /// the bottom row's strip from 25 pixels out, and the real chute is a notch right of row 2.
    static func slantCut() -> (BoardGrid, RGBAImage, PhotoBounds) {
        let board = BoardGrid(left: 70, top: 20, right: 370, bottom: 320, columns: 6, rows: 6, score: 1)
        var pixels = [UInt8](repeating: 120, count: 440 * 340 * 4)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ colour: (UInt8, UInt8, UInt8)) {
            for y in y0..<y1 { for x in x0..<x1 { pixels.replaceSubrange((y * 440 + x) * 4..<(y * 440 + x) * 4 + 3, with: [colour.0, colour.1, colour.2]) } }
        }
        fill(370, 120, 430, 170, (200, 190, 150))  // the notch, in the tray's colour
        fill(0, 270, 45, 320, (0, 0, 0))  // the padding past the cut
        // Photo x = x - y/2 + 105.5: the cut leaves the bottom row's strip at 45 pixels.
        let photo = PhotoBounds(back: Homography(m: [1, -0.5, 105.5, 0, 1, 0, 0, 0, 1]), width: 1_000, height: 340)
        return (board, RGBAImage(width: 440, height: 340, pixels: pixels), photo)
    }

    @Test("the chute's strips stop where the photo does: padding past a slanted cut is no notch")
    func chuteStripsInsideThePhoto() throws {
        let (board, image, photo) = Self.slantCut()
        // Column 46 (23 out) is the first whose bottom corner (46, 303) maps within a pixel of
        // the cut (photo x 0.5).
        #expect(RushHourChute.room(beside: board, side: .left, inside: photo) == 23)
        #expect(RushHourChute.room(beside: board, side: .right, inside: photo) == 60)
        let chute = try RushHourChute.find(board, image, photo: photo)
        #expect(chute.row == 2 && chute.side == .right)
        // Read to the strips' full reach, the padding stands out as much as the notch, or more.
        let unbounded = try? RushHourChute.find(board, image)
        #expect(unbounded.map { $0.row == 2 && $0.side == .right } != true)
    }

    @Test("a board found again in the rectified copy, where it was found as the picture is, is the same board")
    func sameBoardMappedBack() {
        let straight = BoardGrid(left: 70, top: 20, right: 370, bottom: 320, columns: 6, rows: 6, score: 1)
        // The copy at half the size, 100 pixels in: mapped back, corner for corner.
        let half = BoardGrid(left: 135, top: 110, right: 285, bottom: 260, columns: 6, rows: 6, score: 1)
        let back = Homography(m: [2, 0, -200, 0, 2, -200, 0, 0, 1])
        #expect(RushHourScanner.sameBoard(straight, half, map: back))
        // A board a tile lower is another (part of the board, or a slant the straight view missed).
        let lower = BoardGrid(left: 135, top: 135, right: 285, bottom: 285, columns: 6, rows: 6, score: 1)
        #expect(!RushHourScanner.sameBoard(straight, lower, map: back))
    }
}
