// The generators' random numbers: SplitMix64 (Steele, Lea and Flood, 2014), seeded by the user
// and printed with the output, so `--seed 7` gives the same puzzles on every machine and every
// Swift version (the standard library's generator makes no such promise).

public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

extension SplitMix64 {
    /// A uniform integer in 0..<bound, by rejection, so the stream of draws is fixed by this
    /// file alone.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "the bound must be positive")
        let limit = UInt64(bound)
        let unbiased = UInt64.max - UInt64.max % limit
        while true {
            let draw = next()
            if draw < unbiased { return Int(draw % limit) }
        }
    }

    /// The elements in a random order (Fisher-Yates).
    public mutating func shuffled<Element>(_ elements: some Sequence<Element>) -> [Element] {
        var array = Array(elements)
        for index in stride(from: array.count - 1, to: 0, by: -1) {
            array.swapAt(index, below(index + 1))
        }
        return array
    }

    public mutating func coinFlip() -> Bool { next() & 1 == 1 }
}
