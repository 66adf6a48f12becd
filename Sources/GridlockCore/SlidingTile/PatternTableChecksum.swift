// The checksum of a pattern database's tables, written in its cached file's header and checked
// when the file is first mapped and by `gridlock pdb list`. Only the header and the size were
// checked before: with 5% of a file's bytes raised, `pdb list` said "in use" and idastar-pdb
// came back with answers 2-6 moves too long, "solved". A bound that overestimates breaks
// IDA*'s optimality without a word, so a damaged file must be refused, never used.
//
// Four lanes of xxHash64's round over 8-byte words (not for hostile input: this guards against
// damage, and whoever can write the cache can write a matching checksum): several GB/s, so the
// 32 MiB of 6-6-3 cost a few milliseconds and the 550 MiB of 7-8 a fraction of a second.

public enum PatternTableChecksum {
    static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1 &+ prime2, prime2, 0, 0 &- prime1)
        var offset = 0
        while offset + 32 <= bytes.count {
            lanes.0 = round(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lanes.1 = round(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lanes.2 = round(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lanes.3 = round(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
        hash = round(hash, UInt64(bytes.count))
        while offset < bytes.count {
            hash = round(hash, UInt64(bytes[offset]))
            offset += 1
        }
        // The final avalanche, so that nearby inputs give unrelated sums.
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        return hash
    }

    public static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }

    /// As the header writes it: 16 hexadecimal digits.
    public static func text(_ sum: UInt64) -> String {
        let digits = String(sum, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func round(_ accumulator: UInt64, _ word: UInt64) -> UInt64 {
        rotate(accumulator &+ word &* prime2, 31) &* prime1
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
