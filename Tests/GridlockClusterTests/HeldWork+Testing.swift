// What an honest worker's heartbeat says, worked out from the coordinator's own table: lets a
// test say "the worker holds jobs 5 to 9" as version 13's heartbeats did.

@testable import GridlockCluster
import GridlockWire

extension CoordinatorMachine {
    /// The heartbeat of the worker at `address` holding `jobs`, the running one first, having
    /// received every chunk sent to it (or those through `received`). A first job this
    /// coordinator never sent it is placed in a chunk of another run, as a worker holding a
    /// job from before a restart would say.
    func held(by address: [UInt8], _ jobs: [Int], received: ChunkID? = nil) -> HeldWork {
        let info = workers[address]
        let lastReceived = received ?? info?.lastChunkSent
        guard let first = jobs.first else { return HeldWork(current: nil, lastReceived: lastReceived, jobs: 0) }
        let sent = info?.sent.contents ?? []
        let entry = sent.last { $0.job == first && isAssigned(first, to: address, at: $0.position) } ?? sent.last { $0.job == first }
        let current = entry?.position ?? ChunkPosition(chunk: ChunkID(0), index: 0)
        return HeldWork(current: current, lastReceived: lastReceived ?? current.chunk, jobs: jobs.count)
    }
}
