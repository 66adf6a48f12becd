// How long a simulated worker's jobs take: one fixed time, or times drawn at random (seeded)
// from a stored batch's rows, so a load test has a real batch's spread of short and long jobs.

import GridlockCore

public struct SimulatedJobTimes: Sendable {
    private let samples: [Double]
    private var random: SplitMix64

    /// Every job takes `seconds` (0: answered as soon as it arrives).
    public static func fixed(_ seconds: Double) -> SimulatedJobTimes {
        SimulatedJobTimes(samples: [max(0, seconds)], seed: 0)
    }

    /// Jobs take times drawn from `samples` (non-empty), in an order `seed` decides.
    public init(samples: [Double], seed: UInt64) {
        precondition(!samples.isEmpty, "no job times to draw from")
        self.samples = samples
        random = SplitMix64(seed: seed)
    }

    /// The same draws, from another seed: each simulating process draws its own.
    public func reseeded(_ seed: UInt64) -> SimulatedJobTimes { SimulatedJobTimes(samples: samples, seed: seed) }

    public var meanSeconds: Double { samples.reduce(0, +) / Double(samples.count) }

    public mutating func next() -> Double {
        samples.count == 1 ? samples[0] : samples[Int(random.next() % UInt64(samples.count))]
    }
}

extension ResultStore {
    /// The wall times of a stored batch's jobs (all batches' when `batch` is nil), at most
    /// `limit` of them: what `simulate-workers --times-from` draws from.
    public func jobSeconds(batch: String?, limit: Int = 1_000_000) throws -> [Double] {
        try backend.jobSeconds(batch: batch, limit: limit)
    }
}
