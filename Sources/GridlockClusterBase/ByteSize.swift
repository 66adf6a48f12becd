// A size with its unit, as people write one (`256M`, `1.5G`): `--memory-limit` and the config
// file's `job.memory_limit`. A bare number is refused rather than guessed: 256 bytes and
// 256 MiB are both plausible readings, and the wrong one either kills every job at once or
// limits nothing.

import Foundation

public enum ByteSize {
    /// K, M, G and T are powers of 1024, with or without a trailing "iB" or "B", any case.
    static let units: [(suffix: String, shift: Int)] = [("T", 40), ("G", 30), ("M", 20), ("K", 10)]

    /// The bytes, from a page (4K) to 2^62; nil for anything else.
    public static func parse(_ text: String) -> Int? {
        var rest = text.trimmingCharacters(in: .whitespaces).uppercased()
        for tail in ["IB", "B"] where rest.hasSuffix(tail) {
            rest.removeLast(tail.count)
            break
        }
        guard let unit = units.first(where: { rest.hasSuffix($0.suffix) }) else { return nil }
        rest.removeLast()
        // Decimal digits with at most one point: Double alone also reads "0x10" (16), "1e3"
        // and "inf", which nobody means as a size.
        guard isDecimal(rest), let number = Double(rest), number > 0 else { return nil }
        let bytes = number * Double(1 << unit.shift)
        guard bytes >= 4_096, bytes <= Double(1 << 62) else { return nil }
        return Int(bytes)
    }

    private static func isDecimal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && !parts[0].isEmpty
            && parts.allSatisfy { $0.allSatisfy { ("0"..."9").contains($0) } } && parts.last?.isEmpty == false
    }
}
