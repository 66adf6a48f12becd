// `gridlock-chaos`: the hostile peers of `scripts/chaos`. Each subcommand connects to a role as
// an attacker on the same network would, and sends well-formed frames (made with the real
// codec) or junk. The script starts the roles, runs a peer beside them and checks what the
// database holds afterwards. Not installed with Gridlock; built for the chaos suite only.

import ArgumentParser
import Foundation
import GridlockWire
import ZeroMQ

@main
struct ChaosPeer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gridlock-chaos",
        abstract: "Hostile peers for scripts/chaos: forged, oversized and junk frames against the roles.",
        subcommands: [Frames.self, ForgeStored.self, ForgeResults.self, Hoard.self, Churn.self, HugeNames.self, RogueWorker.self]
    )
}

/// Where to connect and which batch to name.
struct Target: ParsableArguments {
    @Option(help: "The role's endpoint, e.g. tcp://127.0.0.1:5555.")
    var to: String

    @Option(help: "The batch the forged frames name.")
    var batch = "chaos"

    @Option(help: "The cluster's key file: the peer is then an insider, a worker holding the key that misbehaves; its asks and heartbeats carry the key's tag.")
    var keyFile: String?

    func key() throws -> ClusterKey? {
        guard let keyFile else { return nil }
        guard let key = ClusterKey(hex: try String(contentsOfFile: keyFile, encoding: .utf8)) else {
            throw ValidationError("\(keyFile) holds no key")
        }
        return key
    }
}

/// The frames of a worker's message, tagged with `key` (an insider's) when there is one; what
/// only the sink or the coordinator says stays untagged: no peer holds their word.
func workerFrames(_ message: WireMessage, key: ClusterKey?) -> [[UInt8]] {
    message.isTheWorkers ? message.frames(key: key) : [message.encoded()]
}

/// What the forged frames need to pass for the batch's own jobs.
struct ForgedJobs: ParsableArguments {
    @Option(help: "The batch's input: one Rush Hour database line a job, solver bfs.")
    var file: String

    @Option(help: "The coordinator's --max-states: part of each job's fingerprint.")
    var maxStates: Int

    /// The jobs the coordinator read from `file`, numbered as it numbers them, with the
    /// fingerprints it computes: the strongest forgery, by a peer that read the input.
    func jobs(batch: String) throws -> [Job] {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard !line.isEmpty else { return nil }
            return Job(batch: batch, id: index, attempt: 1, kind: .rushhour, puzzle: String(line), solver: "bfs",
                       maxStates: maxStates, timeoutSeconds: nil, source: "\(file):\(index + 1)", firstLine: index + 1)
        }
    }
}

/// A peer's identity: another host's, so that forged rows are told from real ones.
let forger = WorkerIdentity(host: "chaos-forger", pid: 666)
/// The insiders', each its own, so that their rows and their quarantine are told apart.
let liar = WorkerIdentity(host: "chaos-liar", pid: 667)
let staller = WorkerIdentity(host: "chaos-staller", pid: 668)

func dealer(_ context: ZMQContext, to endpoint: String, identity: [UInt8]? = nil) throws -> ZMQSocket {
    let socket = try ZMQSocket(context, .dealer)
    try socket.set(.lingerMilliseconds(0))
    if let identity { try socket.set(.routingID(identity)) }
    try socket.connect(endpoint)
    return socket
}

/// Sends `frame`, waiting while the socket's queue is full; gives up after `seconds`.
func send(_ socket: ZMQSocket, _ frame: [UInt8], seconds: Double = 5) throws {
    try send(socket, frames: [frame], seconds: seconds)
}

/// Sends one multipart message, waiting while the socket's queue is full; gives up after `seconds`.
func send(_ socket: ZMQSocket, frames: [[UInt8]], seconds: Double = 5) throws {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while try !socket.send(frames, dontWait: true) {
        guard Date() < deadline else { return }
        usleep(1_000)
    }
}
