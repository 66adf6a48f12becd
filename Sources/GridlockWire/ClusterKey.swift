// The cluster's shared key: what lets the coordinator and the sink believe each other, the
// coordinator believe a worker, and the sink believe a result. Without it, any peer that reaches
// the ports can say it is the sink ("every job is stored"), take jobs as a worker and answer them
// wrongly, or push results for jobs it never held.
//
// With a key (`gridlock batch` makes one per run and hands it to its workers; separate roles read
// the same --key-file):
//   - a worker's asks and heartbeats travel with their tag, so only a holder of the key is
//     handed jobs;
//   - every job a coordinator hands out carries a lease: a tag over the batch, job number,
//     attempt, fingerprint, kind, puzzle, solver, source and the worker it is handed to. A
//     worker echoes it in its result; the sink stores a result only if the lease matches the
//     result's own fields, so a peer that holds no lease cannot forge one, and a worker cannot
//     change what job it answers, nor answer as another worker;
//   - what only the sink says (hello, stored, pages, stopped), what only the coordinator asks
//     (queries, forget) and what only a worker says (ready, heartbeat) travels with a second
//     frame: the tag of the first.
// Tags are SipHash-2-4. The key is not sent on the wire. It does not hide traffic, nor stop a
// peer that can read it from replaying it: that is CURVE's job (the wire's encryption).
//
// With CURVE (`--keys DIR`, KeyDirectory.swift) only the coordinator and the sink hold this
// key (DIR/lease.key). Workers hold none: the transport admits them by their public keys, and
// they cannot make a lease, only echo the ones they are handed, over an encrypted wire.

public struct ClusterKey: Sendable, Hashable {
    let first: UInt64
    let second: UInt64

    public init(_ first: UInt64, _ second: UInt64) {
        self.first = first
        self.second = second
    }

    /// A fresh random key.
    public static func random() -> ClusterKey {
        var generator = SystemRandomNumberGenerator()
        return ClusterKey(generator.next(), generator.next())
    }

    /// A key written as 32 hexadecimal digits (what `gridlock key` prints), surrounding
    /// whitespace ignored; nil otherwise.
    public init?(hex text: String) {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let digits = words.first, digits.utf8.count == 32, digits.utf8.allSatisfy({ $0 < 0x80 }),
              let first = UInt64(digits.prefix(16), radix: 16), let second = UInt64(digits.suffix(16), radix: 16)
        else { return nil }
        self.init(first, second)
    }

    public var hex: String {
        [first, second].map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// What a tag is of: a frame, or a lease. The first byte hashed, so that no tag of one
    /// kind can ever pass for the other.
    enum Domain: UInt8 {
        case frame = 0x46
        case lease = 0x4C
    }

    func tag(_ bytes: [UInt8], _ domain: Domain) -> UInt64 {
        var hash = SipHash24(key: (first, second))
        hash.combine(CollectionOfOne(domain.rawValue))
        hash.combine(bytes)
        return hash.finalize()
    }

    /// A frame's tag as the second frame that travels with it.
    public func tagFrame(_ bytes: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: tag(bytes, .frame).littleEndian, Array.init)
    }

    /// Whether `tagFrame` is `bytes`' tag, compared in constant time.
    public func verifies(_ bytes: [UInt8], tagFrame: [UInt8]) -> Bool {
        let expected = self.tagFrame(bytes)
        guard tagFrame.count == expected.count else { return false }
        return zip(tagFrame, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The lease of a job as handed out (its attempt set) to `worker`.
    public func lease(for job: Job, to worker: WorkerIdentity) -> UInt64 {
        lease(batch: job.batch, job: job.id, attempt: job.attempt, fingerprint: job.fingerprint, kind: job.kind,
              puzzle: job.puzzle, options: job.options, solver: job.solver, source: job.source, worker: worker)
    }

    /// The lease a result must carry: its job's, if it answers the job as handed out, and to
    /// the worker it names. A worker that holds a lease can answer that job only as itself, and
    /// only a lease it was handed: one never handed to it cannot be made without the key.
    public func lease(answering result: JobResult) -> UInt64 {
        lease(batch: result.batch, job: result.job, attempt: result.attempt, fingerprint: result.fingerprint, kind: result.kind,
              puzzle: result.puzzle, options: result.options, solver: result.solver, source: result.source, worker: result.worker)
    }

    private func lease(
        batch: String, job: Int, attempt: Int, fingerprint: JobFingerprint, kind: PuzzleKind, puzzle: String,
        options: JobReadOptions, solver: String, source: String, worker: WorkerIdentity
    ) -> UInt64 {
        // The codec's own encoding (each string behind its length, so no two field lists hash
        // alike), fed to the hash as it is made: building it in an array first was an
        // allocation and a copy of the job's text, for every job handed out and every result
        // stored.
        var hash = SipHash24(key: (first, second))
        hash.combine(CollectionOfOne(Domain.lease.rawValue))
        hash.string(batch)
        hash.unsigned(UInt64(bitPattern: Int64(job) << 1 ^ Int64(job) >> 63))
        hash.unsigned(UInt64(bitPattern: Int64(attempt) << 1 ^ Int64(attempt) >> 63))
        withUnsafeBytes(of: fingerprint.value.littleEndian) { hash.combine($0) }
        hash.combine(CollectionOfOne(kind.wireCode))
        hash.string(puzzle)
        // How the puzzle is read: the sink replays the answer on the puzzle read this way.
        hash.optionalString(options.tileGoal)
        hash.optionalInt(options.tileWidth)
        hash.optionalInt(options.tileHeight)
        hash.string(solver)
        hash.string(source)
        hash.string(worker.host)
        hash.unsigned(UInt64(bitPattern: Int64(worker.pid) << 1 ^ Int64(worker.pid) >> 63))
        return hash.finalize()
    }
}

extension WireMessage {
    /// Whether, with a key, this message travels with its tag.
    public var isTagged: Bool { isTheSinks || isTheCoordinators || isTheWorkers }

    /// The frames that carry this message: with a key, what only the sink, the coordinator or a
    /// worker may say goes with its tag.
    public func frames(key: ClusterKey?) -> [[UInt8]] {
        let frame = encoded()
        guard let key, isTagged else { return [frame] }
        return [frame, key.tagFrame(frame)]
    }
}

extension SipHash24 {
    /// A varint, as WireWriter.unsigned writes it.
    mutating func unsigned(_ value: UInt64) {
        var value = value
        var bytes: (UInt64, UInt64) = (0, 0)
        let count = withUnsafeMutableBytes(of: &bytes) { buffer in
            var count = 0
            while value >= 0x80 {
                buffer[count] = UInt8(truncatingIfNeeded: value) | 0x80
                value >>= 7
                count += 1
            }
            buffer[count] = UInt8(value)
            return count + 1
        }
        withUnsafeBytes(of: bytes) { combine(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// A byte for absent (0) or present (1), then the value, as WireWriter writes them: nil and
    /// "" hash apart.
    mutating func optionalString(_ value: String?) {
        combine(CollectionOfOne(value == nil ? 0 : 1))
        if let value { string(value) }
    }

    mutating func optionalInt(_ value: Int?) {
        combine(CollectionOfOne(value == nil ? 0 : 1))
        if let value { unsigned(UInt64(bitPattern: Int64(value) << 1 ^ Int64(value) >> 63)) }
    }

    /// A string behind its length, as WireWriter.string writes it.
    mutating func string(_ value: String) {
        unsigned(UInt64(value.utf8.count))
        if value.utf8.withContiguousStorageIfAvailable({ combine(UnsafeRawBufferPointer($0)) }) == nil {
            combine(Array(value.utf8))
        }
    }
}
