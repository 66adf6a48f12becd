// The bfs and bidirectional searches compiled for x86-64-v4 (GridlockX86V4) against the
// portable ones: the same states, levels, counts and moves on every fixture; and the bucket
// table against a Set. Skipped, and said so, on a CPU without x86-64-v4. In a debug build the
// searches reach the table through their generic entry points; the release binary's
// specialized searches are compared with the portable ones by scripts/check-portable.

import Foundation
import GridlockCore
import GridlockX86V4
import Testing

@Suite("bfs and bidirectional on x86-64-v4", .enabled(if: CPUFeatures.runsX86V4, "this CPU lacks x86-64-v4"))
struct RushHourWideSearchTests {
    /// Everything but the bytes, which the two tables round differently.
    static func counts(_ result: SolveResult) -> SearchStatistics {
        var statistics = result.statistics
        statistics.memoryBytes = 0
        return statistics
    }

    static func expectSame(_ puzzle: RushHourPuzzle, _ options: SolveOptions) {
        expectSame(
            puzzle, wide: X86V4Searches.rushHourBFS(puzzle, options: options),
            portable: RushHourBFSSolver().search(puzzle, options: options, window: StateTable.self))
        expectSame(
            puzzle, wide: X86V4Searches.rushHourBidirectional(puzzle, options: options),
            portable: RushHourBidirectionalSolver().search(puzzle, options: options, table: StateTable.self))
    }

    static func expectSame(_ puzzle: RushHourPuzzle, wide: SolveResult, portable: SolveResult) {
        #expect(wide.status == portable.status, "\(puzzle.gridText())")
        #expect(wide.cutoffReason == portable.cutoffReason, "\(puzzle.gridText())")
        #expect(wide.solution == portable.solution, "\(puzzle.gridText())")
        #expect(wide.cluster == portable.cluster, "\(puzzle.gridText())")
        #expect(counts(wide) == counts(portable), "\(puzzle.gridText())")
        if wide.status == .solved {
            #expect(throws: Never.self) { try RushHourSolutionValidator.validate(wide.solution, for: puzzle) }
        }
    }

    @Test("the same moves and counts as the portable search, on every fixture and the spread")
    func sameAsPortable() {
        for file in Fixtures.smallFiles + [Fixtures.spread] {
            // Bounded, so that a table that lets repeats in cuts off instead of running on.
            for puzzle in Fixtures.rushHour(file) { Self.expectSame(puzzle, SolveOptions(maxStates: 3_000_000)) }
        }
    }

    @Test("the same whole clusters, and the same cut-offs")
    func sameClustersAndCutoffs() throws {
        for (index, puzzle) in Fixtures.rushHour(Fixtures.spread).enumerated() where index % 10 == 0 {
            Self.expectSame(puzzle, SolveOptions(exploreWholeCluster: true))
            Self.expectSame(puzzle, SolveOptions(maxStates: 300))
        }
        // 270,068 states: the window grows, and its buckets overflow into their neighbours.
        let large = try RushHourPuzzle.parse("11 oGBBoKoGCCJKAAooJKFoHIooFoHIDDooooEE 270068")
        Self.expectSame(large, SolveOptions(maxStates: 400_000, exploreWholeCluster: true))
    }
}

@Suite("bucket table", .enabled(if: CPUFeatures.runsX86V4, "this CPU lacks x86-64-v4"))
struct BucketStateTableTests {
    @Test("insert, contains and tag(of:) answer as a dictionary does: through growth, full buckets, the wrap at the end and reuse")
    func insertLikeASet() {
        var generator = SplitMix64(seed: 17)
        // 64 slots, 8 buckets: neighbours fill and overflow long before the first growth.
        var table = BucketStateTable(initialSlots: 64)
        for round in 0..<3 {
            var oracle: [UInt64: UInt8] = [:]
            for _ in 0..<20_000 {
                // Keys from a small range repeat often; the tag must not make a repeat look new.
                let key = UInt64.random(in: 0..<30_000, using: &generator) &* 0x1_0001
                let tag = UInt8.random(in: 0...255, using: &generator)
                #expect(table.insert(key, tag: tag) == (oracle[key] == nil))
                if oracle[key] == nil { oracle[key] = tag }
            }
            #expect(table.count == oracle.count)
            // Present keys give the first tag they were inserted with; absent ones (from the same
            // range, so their walks cross full buckets and the wrap) give none.
            for key in (0..<30_000).lazy.map({ UInt64($0) &* 0x1_0001 }) {
                #expect(table.contains(key) == (oracle[key] != nil))
                #expect(table.tag(of: key) == oracle[key])
            }
            table.removeAll(reservingFor: round * 5_000)
            #expect(table.count == 0)
        }
    }

    @Test("refilled with distinct keys, none compared: each is found with its tag, others are not, and inserts go on from there", arguments: [0, 1, 7, 300, 20_000])
    func refill(count: Int) {
        var generator = SplitMix64(seed: UInt64(count) &+ 3)
        var table = BucketStateTable(initialSlots: 64)
        // Random keys (an arithmetic run hashes too evenly to fill a bucket), twice as many as
        // refilled: the rest are the absent ones, looked up too.
        var distinct = Set<UInt64>()
        while distinct.count < 2 * count + 2 { distinct.insert(UInt64.random(in: 0..<(1 << 54), using: &generator)) }
        var keys = Array(distinct).shuffled(using: &generator)
        let absent = Array(keys[count...])
        keys.removeLast(keys.count - count)
        let tags = keys.map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for _ in 0..<200 { _ = table.insert(UInt64.random(in: 0..<1_000_000, using: &generator), tag: 1) }
        // Twice: first into new slots (200 keys left too few), then into the same ones, reused,
        // after the absent keys went in: a refill must forget what the buckets held.
        for _ in 0..<2 {
            table.removeAll(refillingWith: count) { keys[$0] | UInt64(tags[$0]) << UInt64(StateTable.keyBits) }
            var found = 0
            var foundAgain = 0
            var foundAbsent = 0
            var insertedAbsent = 0
            for (key, tag) in zip(keys, tags) {
                found += table.tag(of: key) == tag ? 1 : 0
                foundAgain += table.insert(key, tag: tag &+ 1) ? 0 : 1
            }
            for key in absent { foundAbsent += table.contains(key) ? 1 : 0 }
            for key in absent { insertedAbsent += table.insert(key, tag: 9) ? 1 : 0 }
            let all = (keys + absent).filter { table.contains($0) }.count
            #expect(found == count)
            #expect(foundAgain == count)
            #expect(foundAbsent == 0)
            #expect(insertedAbsent == absent.count)
            #expect(all == keys.count + absent.count)
            #expect(table.count == all)
        }
    }
}

@Suite("the installed search")
struct RushHourInstalledSearchTests {
    @Test("a search installed as bfs's answers 20,000 solves in a row (a closure kept bare in the hook overflowed the stack after 9,342)")
    func manySolves() throws {
        let puzzle = try RushHourPuzzle.parse("1 ooooooooooooAAoooooooooooooooooooooo 5")
        let installed = RushHourBFSSolver.wideSearch.withLock { $0 }
        defer { RushHourBFSSolver.wideSearch.withLock { $0 = installed } }
        // The portable search itself, so that other tests solving meanwhile get the same answers.
        RushHourBFSSolver.wideSearch.withLock {
            $0 = .init { puzzle, options in RushHourBFSSolver().search(puzzle, options: options, window: StateTable.self) }
        }
        for _ in 0..<20_000 {
            #expect(RushHourBFSSolver().solve(puzzle, options: SolveOptions()).moves == 1)
        }
    }
}

@Suite("the CPU check")
struct CPUFeaturesTests {
    @Test("CPUFeatures.runsX86V4 agrees with the flags the kernel lists in /proc/cpuinfo")
    func agreesWithTheKernel() throws {
        let text = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        // x86 only: other architectures list "Features", and the check answers no there.
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else {
            #expect(!CPUFeatures.runsX86V4)
            return
        }
        let flags = Set(line.split(separator: ":", maxSplits: 1)[1].split(separator: " ").map(String.init))
        // x86-64-v2, v3 and v4, as the kernel names them (pni: SSE3; abm: LZCNT).
        let v4 = ["pni", "ssse3", "cx16", "sse4_1", "sse4_2", "popcnt", "lahf_lm", "fma", "movbe", "f16c", "xsave",
                  "avx", "avx2", "bmi1", "bmi2", "abm", "avx512f", "avx512dq", "avx512cd", "avx512bw", "avx512vl"]
        #expect(CPUFeatures.runsX86V4 == v4.allSatisfy(flags.contains), "\(v4.filter { !flags.contains($0) })")
    }
}
