// Which CPU each pinned worker gets: the allowed CPUs in order, one thread per core with
// --no-smt, round and round past them.

import Testing
@testable import GridlockCluster

@Suite struct CPUPlacementTests {
    @Test("cpu lists as the kernel writes them; nonsense gives nothing")
    func lists() {
        #expect(CPUPlacement.cpuList("0-3,8,10-11\n") == [0, 1, 2, 3, 8, 10, 11])
        #expect(CPUPlacement.cpuList("5") == [5] && CPUPlacement.cpuList("") == [] && CPUPlacement.cpuList("3-1,x,-2,99999") == [])
    }

    @Test("workers get the allowed CPUs in order; with --no-smt one thread of each core; more workers share them")
    func plans() {
        // Four threads on two cores: 0 and 2 share one, 1 and 3 the other (as Linux numbers them).
        let siblings: (Int) -> [Int] = { [$0 % 2, $0 % 2 + 2] }
        #expect(CPUPlacement.plan(workers: 4, allowed: [0, 1, 2, 3], noSMT: false, siblings: siblings) == [0, 1, 2, 3])
        #expect(CPUPlacement.plan(workers: 4, allowed: [0, 1, 2, 3], noSMT: true, siblings: siblings) == [0, 1, 0, 1])
        // A cpuset that allows only some: those, whatever the machine has.
        #expect(CPUPlacement.plan(workers: 3, allowed: [2, 3], noSMT: false, siblings: siblings) == [2, 3, 2])
        #expect(CPUPlacement.plan(workers: 2, allowed: [], noSMT: false, siblings: siblings) == [])
        #expect(!CPUPlacement.allowed().isEmpty)
    }
}
