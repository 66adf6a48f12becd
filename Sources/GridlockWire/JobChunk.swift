// Chunks (version 14): the coordinator hands a worker its jobs in numbered chunks, and a
// worker's heartbeat says where it is in them in a few words, whatever it holds.
//
//   coordinator --jobs([chunk 41: j7 j8 j9], [chunk 42: j12])--> worker
//   worker --heartbeat(current: chunk 41 at 2, last received: chunk 42, jobs: 2)--> coordinator
//
// A worker solves its jobs in the order they came, so "at chunk 41, index 2" says that every
// job before it is finished (its result on the way to the sink), and "last received 42" says
// which chunks are still on their way. Version 13's heartbeat listed every job held: its size
// grew with the credit, and at 15 fast workers honest lists passed the bound meant for hostile
// ones (issue 44).

/// A chunk's number: unique within a coordinator's run, increasing in the order sent. Each run
/// starts at a random point, so a worker's chunks from a run before a restart are not taken
/// for this one's.
public struct ChunkID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var value: UInt64

    public init(_ value: UInt64) { self.value = value }

    public static func < (a: ChunkID, b: ChunkID) -> Bool { a.value < b.value }
    public var description: String { "chunk \(value)" }
}

/// Jobs handed out together, to be solved in this order.
public struct JobChunk: Sendable, Hashable {
    public var id: ChunkID
    public var jobs: [Job]

    public init(id: ChunkID, jobs: [Job]) {
        self.id = id
        self.jobs = jobs
    }
}

/// A job's place: the chunk it came in, and its index there.
public struct ChunkPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var chunk: ChunkID
    public var index: Int

    public init(chunk: ChunkID, index: Int) {
        self.chunk = chunk
        self.index = index
    }

    public static func < (a: ChunkPosition, b: ChunkPosition) -> Bool { (a.chunk, a.index) < (b.chunk, b.index) }
    public var description: String { "\(chunk) at \(index)" }
}

/// What a worker holds, in a few words whatever its credit.
public struct HeldWork: Sendable, Hashable {
    /// The job it is solving, or the next it will: every job before it is finished. Nil: it
    /// holds nothing unfinished.
    public var current: ChunkPosition?
    /// The newest chunk it has received: newer ones are on their way (or lost).
    public var lastReceived: ChunkID?
    /// Unfinished jobs held, whoever sent them.
    public var jobs: Int

    public init(current: ChunkPosition?, lastReceived: ChunkID?, jobs: Int) {
        self.current = current
        self.lastReceived = lastReceived
        self.jobs = jobs
    }

    /// A process that has received nothing.
    public static let nothing = HeldWork(current: nil, lastReceived: nil, jobs: 0)
}

extension WireProtocol {
    /// The most jobs in one chunk: a worker's whole credit of trivial jobs.
    public static let maximumChunkJobs = 256
    /// The most unfinished jobs a heartbeat may say it holds; an honest worker holds its credit.
    public static let maximumHeldJobs = 1 << 20
    /// The most bytes a heartbeat takes, whatever the worker holds (a test holds it to this).
    public static let maximumHeartbeatBytes = 320
}

extension JobChunk {
    func write(to writer: inout WireWriter) {
        writer.unsigned(id.value)
        writer.list(jobs) { $1.write(to: &$0) }
    }

    init(from reader: inout WireReader) throws(WireError) {
        id = ChunkID(try reader.unsigned())
        jobs = try reader.list(maximumCount: WireProtocol.maximumChunkJobs) { (reader) throws(WireError) in try Job(from: &reader) }
        guard !jobs.isEmpty else { throw .malformed("empty chunk") }
    }
}

extension HeldWork {
    func write(to writer: inout WireWriter) {
        writer.bool(current != nil)
        if let current {
            writer.unsigned(current.chunk.value)
            writer.int(current.index)
        }
        writer.bool(lastReceived != nil)
        if let lastReceived { writer.unsigned(lastReceived.value) }
        writer.int(jobs)
    }

    init(from reader: inout WireReader) throws(WireError) {
        if try reader.bool() {
            let chunk = ChunkID(try reader.unsigned())
            let index = try reader.int()
            guard (0..<WireProtocol.maximumChunkJobs).contains(index) else { throw .malformed("chunk index \(index)") }
            current = ChunkPosition(chunk: chunk, index: index)
        } else {
            current = nil
        }
        lastReceived = try reader.bool() ? ChunkID(try reader.unsigned()) : nil
        jobs = try reader.int()
        guard (0...WireProtocol.maximumHeldJobs).contains(jobs) else { throw .malformed("heartbeat holding \(jobs) jobs") }
        // A position newer than the last chunk received is refused by the coordinator, which
        // alone knows which ids are its run's: ids of two runs (a worker still on jobs from
        // before a restart, and this run's newest chunk) do not compare.
        if current != nil, lastReceived == nil { throw .malformed("heartbeat at \(current!) with no chunk received") }
        if current != nil, jobs == 0 { throw .malformed("heartbeat at \(current!) holding no jobs") }
    }
}

extension WireReader {
    /// A worker's mean job time: finite, and no longer than a job may take.
    mutating func jobSeconds() throws(WireError) -> Double? {
        guard try bool() else { return nil }
        let seconds = try double()
        guard seconds.isFinite, seconds >= 0, seconds <= JobResult.longestSeconds else { throw .malformed("mean job time \(seconds)") }
        return seconds
    }
}
