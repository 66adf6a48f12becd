// Division of a channel sum by a fixed divisor, as a multiply and a shift: a hardware divide
// per channel was most of the cost of shrinking a picture.
//
// With m = floor(2^40 / d) + 1, floor(n * m / 2^40) equals floor(n / d) whenever
// n * d < 2^40: the error n * (m - 2^40 / d) / 2^40 stays under 1/d, less than the gap from
// n / d to the next whole number. A channel sum is at most 255 * d, so that holds while
// 255 * d^2 < 2^40: d up to 65,664, a shrinking factor up to 256; larger divisors divide.

struct ExactDivision {
    private let divisor: Int
    private let multiplier: Int?

    init(by divisor: Int) {
        precondition(divisor > 0)
        self.divisor = divisor
        multiplier = 255 * divisor * divisor < (1 << 40) ? (1 << 40) / divisor + 1 : nil
    }

    /// floor(n / divisor), for 0 <= n <= 255 * divisor.
    @inline(__always)
    func callAsFunction(_ n: Int) -> Int {
        guard let multiplier else { return n / divisor }
        return (n &* multiplier) >> 40
    }
}
