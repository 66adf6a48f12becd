// The cached tables' checksum: any one byte changed, anywhere, changes it.

import GridlockCore
import Testing

@Suite struct PatternTableChecksumTests {
    @Test("one byte raised anywhere (in a 32-byte block or in the tail) changes the sum; a longer run of zeros is another sum")
    func oneByteChangesTheSum() {
        let zeros = [UInt8](repeating: 0, count: 1_000)
        let base = PatternTableChecksum.of(zeros)
        for position in [0, 7, 8, 31, 32, 500, 991, 992, 999] {
            var changed = zeros
            changed[position] = 1
            #expect(PatternTableChecksum.of(changed) != base, "byte \(position)")
        }
        #expect(PatternTableChecksum.of(zeros + [0]) != base)
        #expect(PatternTableChecksum.text(base).count == 16 && PatternTableChecksum.text(0) == "0000000000000000")
    }

    @Test("a header of the first form, with no checksum, or a checksum that is not 16 hex digits, is refused")
    func headers() {
        #expect(throws: PuzzleInputError.self) { _ = try TilePatternDatabase.header(of: Array("GLPDB1 6-6-3 blank-last\n".utf8)) }
        #expect(throws: PuzzleInputError.self) { _ = try TilePatternDatabase.header(of: Array("GLPDB2 6-6-3 blank-last 12\n".utf8)) }
        let read = try? TilePatternDatabase.header(of: Array("GLPDB2 6-6-3 blank-last 00000000000000ff\n".utf8))
        #expect(read?.checksum == 255 && read?.length == 41)
    }
}
