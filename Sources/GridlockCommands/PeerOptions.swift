// `--max-peers`: the cap on a bound role's connected peers (PeerGate.swift), shared by
// `coordinator` and `sink`.

import ArgumentParser
import GridlockCluster
import GridlockClusterBase

struct PeerOptions: ParsableArguments {
    @Option(help: "The most peers connected at once; a connection past it is closed on arrival and logged, and its peer dials again until there is room. Each costs about 23 KB: the default, 2048, keeps the role under 128 MiB with every one connected. Raise it for a cluster of more worker processes. 0: no cap (config: coordinator.max_peers or sink.max_peers).")
    var maxPeers: Int?

    static let range = 0...1_000_000

    func validate() throws {
        if let maxPeers, !Self.range.contains(maxPeers) { throw ValidationError("--max-peers must be 0 (no cap) or a number of peers from 1 to 1000000") }
    }

    /// The gate for this role: the flag, else the config file's `key`, else the default; nil for 0.
    func gate(_ file: ClusterConfig, key: String, role: String) throws -> PeerGate? {
        let limit = maxPeers ?? file.int(key) ?? PeerGate.defaultLimit
        guard Self.range.contains(limit) else { throw ValidationError("\(key) must be 0 (no cap) or a number of peers from 1 to 1000000") }
        return limit == 0 ? nil : PeerGate(limit: limit, role: role)
    }
}
