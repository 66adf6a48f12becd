// Forged acknowledgements and results: a peer that read the input and computes every job's
// fingerprint, the strongest forgery there is without the roles' secrets.

import ArgumentParser
import Foundation
import GridlockWire
import ZeroMQ

struct ForgeStored: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Poses as the sink: says hello, then that every job of the batch is stored.")

    @OptionGroup var target: Target
    @OptionGroup var forged: ForgedJobs

    @Option(help: "Seconds to keep repeating the forgery.")
    var seconds = 3.0

    func run() throws {
        let context = try ZMQContext()
        let socket = try dealer(context, to: target.to, identity: Array("chaos-sink".utf8))
        let stored = try forged.jobs(batch: target.batch).map {
            StoredJob(job: $0.id, fingerprint: $0.fingerprint, status: .solved, wrong: false)
        }
        let deadline = Date(timeIntervalSinceNow: seconds)
        var sent = 0
        while Date() < deadline {
            try send(socket, WireMessage.sinkHello.encoded())
            for page in stride(from: 0, to: stored.count, by: 500) {
                try send(socket, WireMessage.stored(batch: target.batch, jobs: Array(stored[page..<min(page + 500, stored.count)])).encoded())
            }
            sent += stored.count
            usleep(200_000)
        }
        socket.close()
        context.terminate()
        print("forge-stored: \(sent) forged acknowledgements")
    }
}

struct ForgeResults: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pushes a result with a wrong move count for every job of the batch to the sink.")

    @OptionGroup var target: Target
    @OptionGroup var forged: ForgedJobs

    func run() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .push)
        try socket.set(.lingerMilliseconds(2_000))
        try socket.connect(target.to)
        let results = try forged.jobs(batch: target.batch).map { job in
            var result = JobResult(answering: job, worker: forger, status: .solved)
            let expected = Int(job.puzzle.split(separator: " ").last ?? "") ?? 0
            result.moves = expected + 7
            result.solution = "A+1"
            return result
        }
        for group in stride(from: 0, to: results.count, by: 64) {
            try send(socket, WireMessage.results(Array(results[group..<min(group + 64, results.count)])).encoded())
        }
        usleep(500_000)
        socket.close()
        context.terminate()
        print("forge-results: \(results.count) forged results")
    }
}

struct Hoard: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Asks for jobs again and again and never answers: holds what it is given. With --heartbeat, says in its heartbeats that it holds them all the while, as a stalled worker would.")

    @OptionGroup var target: Target

    @Option(help: "Seconds to go on.")
    var seconds = 20.0

    @Flag(help: "Take a grant of 16 jobs at a time and list it in every heartbeat, as a stalled worker would, under a name of its own; drop it after --hold seconds and ask again.")
    var heartbeat = false

    @Option(help: "With --heartbeat, seconds each grant is held.")
    var hold = 3.5

    func run() throws {
        let context = try ZMQContext()
        let socket = try dealer(context, to: target.to, identity: Array((heartbeat ? "chaos-staller" : "chaos-hoarder").utf8))
        let key = try target.key()
        let me = heartbeat ? staller : forger
        let deadline = Date(timeIntervalSinceNow: seconds)
        // What it holds, and where each came: its heartbeats say so as an honest worker's would.
        var held: [ChunkPosition] = []
        var lastReceived: ChunkID?
        var heldSince = Date()
        var taken = 0
        var drained = false
        while Date() < deadline {
            if heartbeat, !held.isEmpty, Date().timeIntervalSince(heldSince) > hold { held = [] }
            let work = HeldWork(current: held.first, lastReceived: lastReceived, jobs: held.count)
            if heartbeat { try send(socket, frames: workerFrames(.heartbeat(me, work), key: key)) }
            if !heartbeat || held.isEmpty { try send(socket, frames: workerFrames(.ready(me, credit: heartbeat ? 16 : WireProtocol.maximumCredit), key: key)) }
            while let frames = try socket.receive() {
                switch try? WireMessage.decode(frames[0]) {
                case .jobs(let chunks)?:
                    taken += chunks.reduce(0) { $0 + $1.jobs.count }
                    if held.isEmpty { heldSince = Date() }
                    for chunk in chunks {
                        held += chunk.jobs.indices.map { ChunkPosition(chunk: chunk.id, index: $0) }
                        lastReceived = chunk.id
                    }
                    held = Array(held.suffix(200))
                case .drained?:
                    drained = true
                default:
                    break
                }
            }
            usleep(heartbeat ? 250_000 : 100_000)
            // Said every round: the suite may end this peer once the batch is over.
            print("hoard: \(taken) jobs taken and never answered; told the batch is drained: \(drained ? "yes" : "no")")
            fflush(nil)
        }
        socket.close()
        context.terminate()
    }
}

struct Churn: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Peers that connect, ask for jobs and vanish.")

    @OptionGroup var target: Target

    @Option(help: "How many peers.")
    var peers = 3_000

    func run() throws {
        let context = try ZMQContext()
        let key = try target.key()
        var taken = 0
        for index in 0..<peers {
            let socket = try dealer(context, to: target.to, identity: Array("chaos-churn-\(index)".utf8))
            try send(socket, frames: workerFrames(.ready(WorkerIdentity(host: "chaos-churn", pid: index), credit: 16), key: key))
            usleep(5_000)
            while let frames = try socket.receive() {
                if frames.count == 1, case .jobs(let chunks)? = try? WireMessage.decode(frames[0]) {
                    taken += chunks.reduce(0) { $0 + $1.jobs.count }
                }
            }
            socket.close()
        }
        context.terminate()
        print("churn: \(peers) peers took \(taken) jobs and vanished")
    }
}

struct RogueWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: """
            Asks for jobs like a worker and answers each with a solution that solves nothing, called correct. Without --key-file \
            an outsider (untagged, then tagged with a key of its own); with it, an insider that the sink's replay must catch and \
            the coordinator quarantine.
            """)

    @OptionGroup var target: Target

    @Option(help: "The sink's results endpoint, where the false answers go.")
    var sink: String

    @Option(help: "Seconds to go on.")
    var seconds = 10.0

    func run() throws {
        let key = try target.key()
        let me = key == nil ? forger : liar
        let context = try ZMQContext()
        let socket = try dealer(context, to: target.to, identity: Array((key == nil ? "chaos-rogue" : "chaos-liar").utf8))
        let results = try ZMQSocket(context, .push)
        try results.set(.lingerMilliseconds(2_000))
        try results.connect(sink)
        // An outsider's asks go untagged, then tagged with a key of its own: neither is the cluster's.
        let ask = WireMessage.ready(me, credit: 16)
        let asks = key.map { [ask.frames(key: $0)] } ?? [[ask.encoded()], ask.frames(key: ClusterKey.random())]
        let deadline = Date(timeIntervalSinceNow: seconds)
        var taken = 0
        var drained = false
        while Date() < deadline {
            for frames in asks { try send(socket, frames: frames) }
            usleep(100_000)
            while let frames = try socket.receive() {
                switch try? WireMessage.decode(frames[0]) {
                case .jobs(let chunks)?:
                    let jobs = chunks.flatMap(\.jobs)
                    taken += jobs.count
                    let lies = jobs.map { job in
                        var result = JobResult(answering: job, worker: me, status: .solved)
                        result.moves = 1
                        result.solution = "validated"
                        result.verdict = .correct
                        return result
                    }
                    try send(results, WireMessage.results(lies).encoded())
                case .drained?:
                    drained = true
                default:
                    break
                }
            }
            // Said every round: the suite may end this peer once the batch is over.
            print("rogue-worker: \(taken) jobs taken and answered with false solutions; told the batch is drained: \(drained ? "yes" : "no")")
            fflush(nil)
        }
        socket.close()
        results.close()
        context.terminate()
    }
}
