// Frames of every message type with values no honest peer sends, and junk, to the coordinator.

import ArgumentParser
import Foundation
import GridlockWire
import ZeroMQ

struct Frames: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Out-of-range and misdirected frames of every type, and random bytes, to the coordinator.")

    @OptionGroup var target: Target

    @Option(help: "Rounds; each sends every hostile frame once.")
    var rounds = 200

    @Option(help: "Go on for this many seconds instead of a number of rounds.")
    var seconds: Double?

    @Option(help: "The sink's results endpoint, to send every frame there too.")
    var sink: String?

    func run() throws {
        let context = try ZMQContext()
        let socket = try dealer(context, to: target.to, identity: Array("chaos-frames".utf8))
        let results = try sink.map { endpoint in
            let push = try ZMQSocket(context, .push)
            try push.set(.lingerMilliseconds(0))
            try push.connect(endpoint)
            return push
        }
        let batch = target.batch
        let fake = JobFingerprint(0xDEAD_BEEF)
        let hostile: [WireMessage] = [
            // Far past any chunk sent, and a count past any credit.
            .heartbeat(forger, HeldWork(current: ChunkPosition(chunk: ChunkID(.max), index: 255), lastReceived: ChunkID(.max), jobs: 1)),
            .heartbeat(forger, HeldWork(current: nil, lastReceived: ChunkID(0), jobs: WireProtocol.maximumHeldJobs)),
            .ready(forger, credit: Int.max),
            .ready(forger, credit: -5),
            .stored(batch: batch, jobs: [StoredJob(job: -1, fingerprint: fake, status: .solved, wrong: false)]),
            .stored(batch: batch, jobs: (0..<50).map { StoredJob(job: $0, fingerprint: fake, status: .solved, wrong: false) }),
            .storedPage(batch: batch, from: -3, jobs: [StoredJob(job: Int.max, fingerprint: fake, status: .solved, wrong: false)], complete: true),
            .storedQuery(batch: batch, from: -1, limit: Int.max),
            .forget(batch: batch, from: 0),
            .drained,
            .jobs([]),
            .results([JobResult(batch: batch, job: -1, attempt: -1, worker: forger, status: .solved)]),
        ]
        // With a key, the peer is a worker holding it: its asks and heartbeats pass the tag
        // check and reach the rules behind it.
        let key = try target.key()
        var random = SystemRandomNumberGenerator()
        let deadline = seconds.map { Date(timeIntervalSinceNow: $0) }
        var round = 0
        while deadline.map({ Date() < $0 }) ?? (round < rounds) {
            var messages = hostile.map { workerFrames($0, key: key) }
            messages.append([(0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }])
            // And each again with 8 bytes of junk after it.
            messages += hostile.map { [$0.encoded() + Array(repeating: 0xAB, count: 8)] }
            for frames in messages {
                try send(socket, frames: frames, seconds: 0.1)
                if let results { try send(results, frames: frames, seconds: 0.1) }
            }
            round += 1
            if round % 50 == 0 { usleep(10_000) }
        }
        socket.close()
        results?.close()
        context.terminate()
        print("frames: \(round) rounds of \(2 * hostile.count + 1) hostile frames sent")
    }
}

struct HugeNames: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "`ready` and `heartbeat` frames with huge host names.")

    @OptionGroup var target: Target

    @Option(help: "Bytes in each host name.")
    var bytes = 15 << 20

    @Option(help: "Frames to send.")
    var count = 40

    func run() throws {
        let context = try ZMQContext()
        let name = String(repeating: "h", count: bytes)
        for index in 0..<count {
            // A new connection each time: a new peer the coordinator might keep.
            let socket = try dealer(context, to: target.to, identity: Array("chaos-huge-\(index)".utf8))
            let identity = WorkerIdentity(host: name, pid: index)
            try send(socket, WireMessage.ready(identity, credit: 4).encoded())
            try send(socket, WireMessage.heartbeat(identity, .nothing).encoded())
            usleep(50_000)
            socket.close()
        }
        context.terminate()
        print("huge-names: \(count) peers with \(bytes)-byte host names")
    }
}
