// A job's identity across runs: a 64-bit hash of everything that decides its answer (kind,
// puzzle text, solver, limits, reading options), and of nothing else (not its number, batch,
// attempt or file name). A resumed batch compares each job's fingerprint with the row stored
// under the same job number: equal means the stored answer still answers it.
//
// FNV-1a over the fields' wire encoding, each behind its length, then a final avalanche
// (splitmix64's), so that "ab"+"c" and "a"+"bc" differ and nearby texts spread. Stable across
// processes and builds, unlike Swift's seeded `Hasher`. It only ever compares a job with the
// row stored at its own number, so 64 bits leave a chance of 2^-64 per job of missing a change.

public struct JobFingerprint: Sendable, Hashable, CustomStringConvertible {
    public var value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    /// The fingerprint of the fields that decide a job's answer. `solverDigest` names an outside
    /// solver's command (`digest(of:)`); 0, a built-in solver, adds nothing, so the fingerprints
    /// stored before outside solvers stay valid; so do no `limits`.
    public init(
        kind: PuzzleKind, puzzle: String, solver: String, maxStates: Int, timeoutSeconds: Double?, options: JobReadOptions,
        solverDigest: UInt64 = 0, limits: JobLimits = JobLimits(), repetition: Int = 0
    ) {
        var writer = WireWriter(capacity: puzzle.utf8.count + solver.utf8.count + 48)
        // The kind's name, not its wire code: fingerprints stored before kinds were codes stay valid.
        writer.string(kind.rawValue)
        writer.string(puzzle)
        writer.string(solver)
        writer.int(maxStates)
        writer.bool(timeoutSeconds != nil)
        if let timeoutSeconds { writer.double(timeoutSeconds) }
        options.write(to: &writer)
        if solverDigest != 0 { writer.word(solverDigest) }
        // Likewise no limits add nothing, so fingerprints stored before them stay valid.
        if !limits.isEmpty {
            writer.byte(0x4C)
            limits.write(to: &writer)
        }
        // The first run of a puzzle is the job it always was; the others are jobs of their own.
        if repetition != 0 {
            writer.byte(0x52)
            writer.int(repetition)
        }
        value = Self.hash(writer.bytes)
    }

    /// An outside solver's command as a number that jobs carry and fingerprints include: a
    /// changed command changes every answer it gave, and a worker whose command differs from
    /// the coordinator's is told so. Never 0 (which means a built-in solver).
    public static func digest(of command: String) -> UInt64 {
        max(1, hash(Array(command.utf8)))
    }

    /// FNV-1a, then splitmix64's avalanche.
    private static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash ^= hash >> 30
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 27
        hash = hash &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 31
        return hash
    }

    /// The same bits as SQLite's signed 64-bit integer.
    public var storedValue: Int64 { Int64(bitPattern: value) }

    public init(storedValue: Int64) {
        value = UInt64(bitPattern: storedValue)
    }

    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// How a job's text is read, beyond its kind: options that change the puzzle itself.
public struct JobReadOptions: Sendable, Hashable {
    /// A tile puzzle's goal, overriding the text's own ("blank-last", "blank-first").
    public var tileGoal: String?
    /// A tile line's board size when its count is not a square.
    public var tileWidth: Int?
    public var tileHeight: Int?

    public init(tileGoal: String? = nil, tileWidth: Int? = nil, tileHeight: Int? = nil) {
        self.tileGoal = tileGoal
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
    }

    func write(to writer: inout WireWriter) {
        writer.optionalString(tileGoal)
        writer.optionalInt(tileWidth)
        writer.optionalInt(tileHeight)
    }

    init(from reader: inout WireReader) throws(WireError) {
        self.init(tileGoal: try reader.optionalString(), tileWidth: try reader.optionalInt(), tileHeight: try reader.optionalInt())
    }
}
