// The digit reader: the nearest of many examples. Each example is a digit of a font installed
// when Gridlock was built, drawn at several sizes (DigitTrainer). A mark is read as the digit
// of the example nearest it, and trusted only when no example of another digit comes close:
// a typeface unlike every trained one, a smudge or a digit cut by a line then reads as
// uncertain, never as a confident guess.
//
// Nearest examples rather than a fitted network: no training run to tune, every decision
// explained by the example it matched, and the whole model rebuilt from fonts in a second.

public struct DigitModel: Sendable {
    public struct Example: Sendable, Hashable {
        public var digit: UInt8
        public var features: [UInt8]

        public init(digit: UInt8, features: [UInt8]) {
            self.digit = digit
            self.features = features
        }
    }

    public private(set) var examples: [Example]
    /// Every example's features end to end, for a tight loop.
    private var packed: [UInt8]

    public init(examples: [Example]) {
        precondition(examples.allSatisfy { $0.features.count == DigitFeatures.count && (1...9).contains($0.digit) })
        self.examples = examples
        packed = examples.flatMap(\.features)
    }

    public struct Reading: Sendable, Hashable {
        public var digit: Int
        /// The mean squared difference per feature to the nearest example (0 identical).
        public var distance: Double
        /// The nearest other digit and its distance.
        public var alternative: Int
        public var alternativeDistance: Double
        /// Whether the reading can be given without a flag.
        public var confident: Bool
    }

    /// How much nearer the best digit's example must be than any other digit's, and how near
    /// at all, for a reading to be trusted. Set on 500 grids printed in 8 typefaces, 4 of them
    /// held out of training (SudokuScanAccuracyTests): of 11,845 digits, the one misread by
    /// the reader came at a ratio of 1.04; 24 read right came under 1.3 and are flagged too.
    public static let minimumRatio = 1.3
    public static let maximumDistance = 2_000.0

    public func read(_ features: [UInt8]) -> Reading? {
        precondition(features.count == DigitFeatures.count)
        guard !examples.isEmpty else { return nil }
        var best = [Int](repeating: Int.max, count: 10)
        let length = DigitFeatures.count
        features.withUnsafeBufferPointer { mark in
            packed.withUnsafeBufferPointer { all in
                for (index, example) in examples.enumerated() {
                    let base = index * length
                    var sum = 0
                    for i in 0..<length {
                        let difference = Int(mark[i]) - Int(all[base + i])
                        sum &+= difference * difference
                    }
                    let digit = Int(example.digit)
                    if sum < best[digit] { best[digit] = sum }
                }
            }
        }
        let ranked = (1...9).sorted { best[$0] < best[$1] }
        let first = ranked[0], second = ranked[1]
        let distance = Double(best[first]) / Double(length), other = Double(best[second]) / Double(length)
        let confident = distance <= Self.maximumDistance && other >= distance * Self.minimumRatio
        return Reading(digit: first, distance: distance, alternative: second, alternativeDistance: other, confident: confident)
    }

    // MARK: The model as bytes (what the build compiles in)

    static let magic: [UInt8] = Array("GLDM2".utf8)

    public func serialized() -> [UInt8] {
        var bytes = Self.magic
        let count = UInt32(examples.count)
        bytes += [UInt8(count & 0xFF), UInt8((count >> 8) & 0xFF), UInt8((count >> 16) & 0xFF), UInt8(count >> 24)]
        bytes += [UInt8(DigitFeatures.count & 0xFF), UInt8(DigitFeatures.count >> 8)]
        for example in examples { bytes.append(example.digit); bytes += example.features }
        return bytes
    }

    public init(serialized bytes: [UInt8]) throws(DigitModelError) {
        let header = Self.magic.count + 6
        guard bytes.count >= header, Array(bytes[0..<Self.magic.count]) == Self.magic else { throw DigitModelError("not a digit model") }
        let at = Self.magic.count
        let count = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        let features = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8
        guard features == DigitFeatures.count else { throw DigitModelError("a model of \(features) features an example; this build reads \(DigitFeatures.count)") }
        let record = 1 + DigitFeatures.count
        guard bytes.count == header + count * record else { throw DigitModelError("a model of \(count) examples needs \(header + count * record) bytes, not \(bytes.count)") }
        var examples: [Example] = []
        examples.reserveCapacity(count)
        for index in 0..<count {
            let start = header + index * record
            let digit = bytes[start]
            guard (1...9).contains(digit) else { throw DigitModelError("example \(index) is of digit \(digit)") }
            examples.append(Example(digit: digit, features: Array(bytes[start + 1..<start + record])))
        }
        self.init(examples: examples)
    }
}

public struct DigitModelError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
