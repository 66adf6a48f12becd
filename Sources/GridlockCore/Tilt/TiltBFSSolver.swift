// `bfs` for tilt puzzles: breadth-first over board states until one where every colour is a
// single unit. Tilts are not reversible, so there is no bidirectional variant.
//
// States are stored flat: `stride` words each (one board per colour, then the plain blocks'),
// in the order found, which is also the BFS queue; a state's parent and tilt sit at its number
// in two more arrays; the visited set is an open-addressing table of state numbers. About
// 8 x stride + 13 bytes a state, where a dictionary of `TiltState` (each a heap array) held
// about 250 bytes a state on a 15-colour board and was 3x slower: a runaway board took 12.6 s
// to reach a 256 MiB budget.

public struct TiltBFSSolver: PuzzleSolver {
    public let name = "bfs"

    public init() {}

    public func solve(_ puzzle: TiltPuzzle, options: SolveOptions) -> SolveResult {
        var statistics = SearchStatistics()
        let stride = puzzle.colourNames.count + 1
        var words = puzzle.start.colours + [puzzle.start.plain]
        var parents: [UInt32] = [UInt32.max]
        var tilts: [UInt8] = [0]
        var seen = TiltStateIndex()
        _ = words.withUnsafeBufferPointer { seen.insert(0, words: $0, stride: stride) }
        statistics.countExamined(atLevel: 0)
        statistics.countEnqueued(atLevel: 0)
        var goal: Int? = puzzle.isSolved(puzzle.start) ? 0 : nil
        var layerStart = 0
        var depth = 0
        var cutoff: CutoffReason?
        var next = [UInt64](repeating: 0, count: stride)
        while goal == nil, layerStart < parents.count {
            let layerEnd = parents.count
            depth += 1
            for position in layerStart..<layerEnd where goal == nil {
                if parents.count > options.maxStates || parents.count + 4 >= Int(UInt32.max) { cutoff = .maxStates; break }
                if position % SolveOptions.cancellationInterval == 0, options.isCancelled() { cutoff = options.stopReason; break }
                // At every expansion: what the words, the parent links and the index hold now,
                // the figure it reports (MemoryBudget.swift).
                let held = words.bytesHeld(afterAdding: 0) + parents.bytesHeld(afterAdding: 0) + tilts.bytesHeld(afterAdding: 0)
                    + seen.bytesHeld(afterAdding: 0)
                if options.overBudget(held) { cutoff = .memoryBudget; break }
                for direction in TiltDirection.allCases {
                    let moved = words.withUnsafeBufferPointer { all in
                        next.withUnsafeMutableBufferPointer { into in
                            puzzle.tilt(UnsafeBufferPointer(rebasing: all[(position * stride)..<((position + 1) * stride)]), direction, into: into)
                        }
                    }
                    guard moved else { continue }
                    statistics.countExamined(atLevel: depth)
                    let number = parents.count
                    words.append(contentsOf: next)
                    let added = words.withUnsafeBufferPointer { seen.insert(number, words: $0, stride: stride) }
                    guard added else {
                        words.removeLast(stride)
                        continue
                    }
                    parents.append(UInt32(position))
                    tilts.append(direction.rawValue)
                    statistics.countEnqueued(atLevel: depth)
                    if next.withUnsafeBufferPointer({ puzzle.isSolved($0) }) { goal = number; break }
                }
            }
            if cutoff != nil { break }
            statistics.maxQueue = max(statistics.maxQueue, parents.count - layerEnd)
            layerStart = layerEnd
        }
        statistics.levelReached = depth
        statistics.statesStored = parents.count
        statistics.memoryBytes = words.capacity * 8 + parents.capacity * 4 + tilts.capacity + seen.memoryBytes
        guard let goal else {
            return SolveResult(status: cutoff == nil ? .unsolvable : .cutoff, cutoffReason: cutoff, cluster: cutoff == nil ? parents.count : nil, statistics: statistics)
        }
        var moves: [SolutionMove] = []
        var current = goal
        while current != 0 {
            let name = TiltDirection(rawValue: tilts[current])!.name
            moves.append(SolutionMove(piece: name, from: nil, to: nil, text: name))
            current = Int(parents[current])
        }
        return SolveResult(status: .solved, solution: moves.reversed(), statistics: statistics)
    }
}

/// The tilt search's visited set: state numbers (plus one; 0 is empty) in open addressing with
/// linear probing, at most half full, hashed and compared by the states' words.
struct TiltStateIndex {
    private var slots = [UInt32](repeating: 0, count: 1 << 12)
    private(set) var count = 0

    var memoryBytes: Int { slots.count * 4 }

    /// The bytes held once `adding` more states are in: at half full the table doubles, and
    /// the old and new slots are held together while it moves.
    func bytesHeld(afterAdding adding: Int) -> Int {
        (count + adding) * 2 > slots.count ? memoryBytes * 3 : memoryBytes
    }

    /// Adds state `number` (its words at `number * stride` in `words`) unless an equal state
    /// is in; returns whether it was added.
    mutating func insert(_ number: Int, words: UnsafeBufferPointer<UInt64>, stride: Int) -> Bool {
        if (count + 1) * 2 > slots.count { grow(words: words, stride: stride) }
        let mask = slots.count - 1
        var slot = Self.hash(words, number * stride, stride) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if Self.equal(words, Int(entry - 1) * stride, number * stride, stride) { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = UInt32(number + 1)
        count += 1
        return true
    }

    private mutating func grow(words: UnsafeBufferPointer<UInt64>, stride: Int) {
        var bigger = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for entry in slots where entry != 0 {
            var slot = Self.hash(words, Int(entry - 1) * stride, stride) & mask
            while bigger[slot] != 0 { slot = (slot + 1) & mask }
            bigger[slot] = entry
        }
        slots = bigger
    }

    private static func hash(_ words: UnsafeBufferPointer<UInt64>, _ start: Int, _ stride: Int) -> Int {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in start..<(start + stride) {
            hash = (hash ^ words[index]) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
        }
        return Int(truncatingIfNeeded: hash >> 1)
    }

    private static func equal(_ words: UnsafeBufferPointer<UInt64>, _ a: Int, _ b: Int, _ stride: Int) -> Bool {
        for offset in 0..<stride where words[a + offset] != words[b + offset] { return false }
        return true
    }
}

public enum TiltSolvers {
    public static let all: [any PuzzleSolver<TiltPuzzle>] = [TiltBFSSolver()]
    public static let names = all.map(\.name)
    public static func named(_ name: String) -> (any PuzzleSolver<TiltPuzzle>)? { all.first { $0.name == name } }
}
