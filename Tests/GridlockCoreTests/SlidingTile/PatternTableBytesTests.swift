// The tables' bytes: what they read, and that memory someone else owns is released once, when
// the last holder lets go (a mapping of the cache file is unmapped then, never while in use).

import Synchronization
import Testing
@testable import GridlockCore

@Suite struct PatternTableBytesTests {
    @Test("bytes copied in read back; memory owned elsewhere is released once, after the last holder")
    func releasedOnceAfterTheLastHolder() throws {
        let copied = PatternTableBytes([3, 1, 4, 1, 5])
        #expect(copied.count == 5 && copied[2] == 4 && copied.withUnsafeBufferPointer(Array.init) == [3, 1, 4, 1, 5])

        let releases = Atomic<Int>(0)
        // One group of one tile: a sparse table of 16 entries.
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
        for index in 0..<16 { memory.storeBytes(of: UInt8(index + 1), toByteOffset: index, as: UInt8.self) }
        var tables: PatternTableBytes? = PatternTableBytes(unsafeBase: UnsafeRawPointer(memory), count: 16) { base in
            releases.add(1, ordering: .relaxed)
            base.deallocate()
        }
        let database = try TilePatternDatabase(goal: .blankFirst, partition: .fiveFiveFive, groups: [[1]], storage: tables!)
        tables = nil
        // The database still holds them.
        #expect(releases.load(ordering: .relaxed) == 0 && database.storage[3] == 4)
        _ = consume database
        #expect(releases.load(ordering: .relaxed) == 1)
    }
}
