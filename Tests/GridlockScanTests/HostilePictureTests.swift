// Pictures made to cost the Rush Hour scanner time rather than to be read: each is refused
// quickly, with a reason, instead of being searched pair by pair of its lines.

import GridlockCore
@testable import GridlockScan
import Testing

@Suite("hostile pictures")
struct HostilePictureTests {
    /// Dark and light bands `band` pixels high, between two dark blue sides: every band's edge
    /// is a long line, and every pair of them with the sides a rectangle that could be a board.
    static func stripes(side: Int, band: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let at = (y * side + x) * 4
                let colour: (UInt8, UInt8, UInt8) =
                    x < 12 || x >= side - 12 ? (0, 0, 128) : (y / band) % 2 == 0 ? (16, 16, 16) : (240, 240, 240)
                (pixels[at], pixels[at + 1], pixels[at + 2]) = colour
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels)
    }

    @Test("stripes give thousands of rectangles of long lines: refused once past the limit, naming why")
    func stripesAreRefused() throws {
        let result = RushHourScanner.scan(Self.stripes(side: 320, band: 3))
        guard case .failure(let error) = result else {
            Issue.record("stripes read as a board")
            return
        }
        #expect(error.description.contains("more than \(BoardFinder.maximumCandidates) rectangles of long straight lines"), "\(error)")
    }
}
