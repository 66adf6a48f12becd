// A move's text, written byte by byte where it can be, against the plain interpolation.

@testable import GridlockCore
import Testing

@Suite("Rush Hour move text")
struct RushHourMoveTextTests {
    @Test("every name, direction and distance reads as `NAME DIRECTION DISTANCE`, the fast path and the fallback alike")
    func textMatchesInterpolation() {
        let names: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZxo#.é🚗") + ["e\u{301}"]
        for name in names {
            for direction in ["up", "down", "left", "right", "sideways"] {
                for distance in [1, 2, 7, 9, 10, 12, 123] {
                    #expect(RushHourMoveText.text(name, direction, distance) == "\(name) \(direction) \(distance)")
                }
            }
        }
    }

    @Test("a move between two positions: its piece, cells and text")
    func move() {
        let before = RushHourBlock(name: "B", orientation: .vertical, length: 2, row: 0, column: 3)
        var after = before
        after.position = 3
        let move = RushHourMoveText.move(from: before, to: after)
        #expect(move.text == "B down 3")
        #expect(move.piece == "B")
        #expect(move.from == BoardCell(row: 0, column: 3))
        #expect(move.to == BoardCell(row: 3, column: 3))
        #expect(RushHourMoveText.move(from: after, to: before).text == "B up 3")
    }
}
