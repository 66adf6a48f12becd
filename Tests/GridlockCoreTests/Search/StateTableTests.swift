// The visited set behind the fast solvers: membership, tags and growth.

import GridlockCore
import Testing

@Suite("StateTable")
struct StateTableTests {
    @Test("it holds every key once with its first tag, through many growths")
    func membership() {
        var table = StateTable(initialSlots: 64)
        var keys: [UInt64] = []
        var state: UInt64 = 1
        for _ in 0..<100_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            keys.append(state >> 10)
        }
        for (index, key) in keys.enumerated() {
            let added = table.insert(key, tag: UInt8(index % 200))
            #expect(added)
        }
        #expect(table.count == keys.count)
        for (index, key) in keys.enumerated() {
            let addedAgain = table.insert(key, tag: 255)
            let tag = table.tag(of: key)
            #expect(!addedAgain)
            #expect(tag == UInt8(index % 200))
        }
        let absent = table.contains(keys[0] ^ 1 << 53)
        let bytesPerKey = Double(table.memoryBytes) / Double(table.count)
        #expect(!absent)
        #expect(bytesPerKey <= 12.5)
    }

    @Test("key zero is a key like any other")
    func zeroKey() {
        var table = StateTable()
        let before = table.contains(0)
        let added = table.insert(0, tag: 7)
        let tag = table.tag(of: 0)
        #expect(!before)
        #expect(added)
        #expect(tag == 7)
    }
}
