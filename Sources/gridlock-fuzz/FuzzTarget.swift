// One fuzz input through the wire decoder and both roles' state machines. Built two ways:
// with `-sanitize=fuzzer -DFUZZING` (scripts/fuzz) libFuzzer calls `LLVMFuzzerTestOneInput`
// with inputs it mutates toward new coverage; in a plain build `gridlock-fuzz` replays saved
// inputs (the regression corpus) and writes the seed corpus: one valid frame of every message
// type, so the fuzzer starts from each.
//
// An input is a control byte and a frame. The control byte says who sends the frame (a worker
// or the sink), whether the machines have a key, and whether the frame goes with its true tag,
// with the input's last 8 bytes as a tag, or alone.

import Glibc
import GridlockCluster
import GridlockWire

enum FuzzTarget {
    static let key = ClusterKey(0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)
    static let sink: [UInt8] = [0x53]
    static let worker: [UInt8] = [0x57]
    static let identity = WorkerIdentity(host: "fuzz", pid: 1)

    static func run(_ input: [UInt8]) {
        guard let control = input.first else { return }
        let frame = Array(input.dropFirst())
        _ = try? WireMessage.decode(frame)
        let keyed = control & 0x04 != 0
        let frames: [[UInt8]]
        switch control & 0x03 {
        case 0: frames = [frame]
        case 1: frames = [frame, key.tagFrame(frame)]
        case 2: frames = [Array(frame.dropLast(8)), Array(frame.suffix(8))]
        default: frames = []
        }
        coordinator(frames, from: control & 0x08 != 0 ? sink : worker, keyed: keyed)
        sink(frames, keyed: keyed)
    }

    /// A coordinator with three jobs read, the sink heard and its page taken, then the frames.
    static func coordinator(_ frames: [[UInt8]], from sender: [UInt8], keyed: Bool) {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: identity)
        if keyed { configuration.key = key }
        var machine = CoordinatorMachine(configuration: configuration)
        let t0 = ContinuousClock.now
        let jobs = (0..<3).map { id in
            ReadJob(job: Job(batch: "b", id: id, attempt: 0, kind: .rushhour, puzzle: "p\(id)", solver: "bfs", maxStates: 9, timeoutSeconds: nil))
        }
        _ = machine.read(jobs, ended: true, now: t0)
        _ = machine.receive([sink] + WireMessage.sinkHello.frames(key: configuration.key), now: t0)
        _ = machine.receive([sink] + WireMessage.storedPage(batch: "b", from: 0, jobs: [], complete: true).frames(key: configuration.key), now: t0)
        _ = machine.receive([worker] + WireMessage.ready(identity, credit: 2).frames(key: configuration.key), now: t0)
        _ = machine.receive([sender] + frames, now: t0)
        _ = machine.tick(now: t0.advanced(by: .seconds(5)))
        _ = machine.tick(now: t0.advanced(by: .seconds(60)))
    }

    /// A sink given the frames as results and as the coordinator's words, storing what it takes.
    static func sink(_ frames: [[UInt8]], keyed: Bool) {
        var machine = SinkMachine(key: keyed ? key : nil)
        let t0 = ContinuousClock.now
        _ = machine.receiveFromCoordinator(frames, now: t0)
        _ = machine.receiveResults(frames, now: t0)
        for action in machine.tick(now: t0.advanced(by: .seconds(1))) + machine.finish() {
            guard case .store(let results) = action else { continue }
            let rows = results.map { StoredJob(storing: $0) }
            _ = machine.stored(results, as: ResultStore.Stored(rows: rows, inserted: rows.count))
        }
    }

    /// One valid frame of every message type, with the control bytes that reach each role.
    static var seeds: [[UInt8]] {
        var job = Job(batch: "b", id: 1, attempt: 1, kind: .rushhour, puzzle: "p1", solver: "bfs", maxStates: 9, timeoutSeconds: nil)
        job.lease = key.lease(for: job, to: identity)
        var result = JobResult(answering: job, worker: identity, status: .solved)
        result.moves = 3
        let stored = StoredJob(storing: result)
        // The coordinator's first chunk, as the target's machine numbers them.
        let chunk = ChunkID(CoordinatorMachine.Configuration(batch: "b", identity: identity).chunkEpoch)
        let messages: [WireMessage] = [
            .ready(identity, credit: 4, jobSeconds: 0.001), .jobs([JobChunk(id: chunk, jobs: [job])]),
            .heartbeat(identity, HeldWork(current: ChunkPosition(chunk: chunk, index: 0), lastReceived: chunk, jobs: 1)), .results([result]),
            .stored(batch: "b", jobs: [stored]), .sinkHello, .storedQuery(batch: "b", from: 0, limit: 10),
            .storedPage(batch: "b", from: 0, jobs: [stored], complete: true), .forget(batch: "b", from: 2), .drained,
            .sinkStopped(reason: "disk full"),
            .machine(batch: "b", MachineRecord(
                host: "h", cpuModel: "CPU", cores: 2, threads: 4, governor: "performance", turbo: nil, kernel: "6.1", memoryBytes: 1 << 30,
                loadAverage: 0.5, method: "m")),
        ]
        return messages.flatMap { message in
            [0x00, 0x0D].map { control in [control] + message.encoded() }
        }
    }
}

/// Which target an input is for: the wire (the default) or, with GRIDLOCK_FUZZ_TARGET=parsers
/// or a saved input named `parsers-...`, the parsers (ParserTarget.swift).
/// Which target a run fuzzes: GRIDLOCK_FUZZ_TARGET names it (the wire by default); a saved
/// input names it by its file's prefix (`parsers-`, `options-`, `database-`; none: the wire).
enum FuzzTargetChoice: String, CaseIterable {
    case wire, parsers, options, database

    static let chosen = getenv("GRIDLOCK_FUZZ_TARGET").flatMap { FuzzTargetChoice(rawValue: String(cString: $0)) } ?? .wire

    /// The target a saved input was found by.
    init(fileName: String) {
        self = Self.allCases.first { $0 != .wire && fileName.hasPrefix($0.rawValue + "-") } ?? .wire
    }

    func run(_ input: [UInt8]) {
        switch self {
        case .wire: FuzzTarget.run(input)
        case .parsers: ParserTarget.run(input)
        case .options: OptionsTarget.run(input)
        case .database: DatabaseTarget.run(input)
        }
    }
}

#if FUZZING
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTargetChoice.chosen.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// libFuzzer's entry for a program that has its own main (LLVM 13 and later).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// SwiftPM links an executable's `main` to this symbol, so libFuzzer's own main is not used:
/// this hands the arguments to its driver.
@_cdecl("gridlock_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#endif
