// The keys of separate roles. Two ways, one per cluster:
//   - CURVE (`gridlock keys generate DIR`, `--keys DIR`): every connection encrypted and
//     admitted by its public key; workers hold no shared secret (KeyDirectory.swift);
//   - a shared cluster key (`gridlock key`, `--key-file`): frames tagged, not encrypted, for one
//     trusted network (ClusterKey.swift says what it protects).

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockClusterBase
import GridlockWire

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "CURVE keys for a cluster across machines: encrypted wire, only listed keys admitted.",
        subcommands: [KeysGenerateCommand.self]
    )
}

struct KeysGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a new key directory: a CURVE key pair per role, the allowlist, the lease key.",
        discussion: """
            DIR is made (mode 700), or must be empty: keys are never overwritten. It holds:
              coordinator.key  sink.key  worker.key   each role's key pair (mode 600)
              lease.key        the coordinator's and the sink's shared lease key (secret)
              allowed          the public keys the coordinator and the sink admit

            Give every role --keys DIR (or `cluster.keys` in its config file, or GRIDLOCK_KEYS). \
            A worker machine needs only worker.key and allowed; the coordinator its own .key, \
            lease.key and allowed; the sink likewise. To admit another worker key pair, add a \
            `worker KEY` line to allowed. Workers with a key not listed, and plain sockets, are \
            refused at the handshake and given nothing.

            Example:
              gridlock keys generate cluster-keys
              gridlock sink --keys cluster-keys --bind tcp://*:5556 \\
                  --coordinator tcp://coordinator:5555
              gridlock coordinator FILE --batch big --keys cluster-keys \\
                  --bind tcp://*:5555 --sink tcp://sink:5556
              gridlock worker --keys cluster-keys \\
                  --coordinator tcp://coordinator:5555 --sink tcp://sink:5556
            """
    )

    @Argument(help: "The new key directory.", completion: .directory)
    var directory: String

    func run() throws {
        for path in try KeyDirectory.generate(at: directory) { print(path) }
    }
}

struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Make a new random shared cluster key, for --key-file: printed, or written to a new file (mode 600).",
        discussion: """
            The coordinator, the sink and the workers of one cluster read the same key file; \
            with it, only they can speak for each other, the coordinator hands jobs only to \
            workers that hold the key, and the sink stores a result only for a job the \
            coordinator handed out. Frames are tagged, not encrypted: across networks you do \
            not trust, use `gridlock keys generate` (CURVE) instead. `gridlock batch` makes its \
            own key for each run and gives it to its workers.

            With FILE, the key is written there, readable by its owner only (mode 600); an \
            existing file is never overwritten.

            Example:
              gridlock key gridlock.key
              gridlock sink --key-file gridlock.key ...
              gridlock coordinator FILE --batch big --key-file gridlock.key ...
              gridlock worker --key-file gridlock.key ...
            """
    )

    @Argument(help: "Write the key to this new file (mode 600) instead of standard output.")
    var file: String?

    func run() throws {
        let key = ClusterKey.random()
        guard let file else {
            print(key.hex)
            return
        }
        try ClusterKeyFile.create(key, at: file)
    }
}

/// How a role protects its wire, as its options and config chose.
enum RoleSecurity {
    case insecure
    case sharedKey(ClusterKey)
    case curve(RoleKeys)

    /// The key that tags frames and makes leases: the shared one, or CURVE's lease key (the
    /// coordinator's and the sink's; a CURVE worker holds none).
    var key: ClusterKey? {
        switch self {
        case .insecure: nil
        case .sharedKey(let key): key
        case .curve(let keys): keys.lease
        }
    }

    var curve: RoleKeys? {
        if case .curve(let keys) = self { keys } else { nil }
    }

    /// What the batch's record says of it.
    var wire: WireSecurity {
        switch self {
        case .insecure: .insecure
        case .sharedKey: .sharedKey
        case .curve: .curve
        }
    }
}

/// `--keys`, `--key-file` and `--insecure`, for the coordinator, the sink and the workers. Keys
/// are on by default (issue 48): a role given neither refuses to start, because without them
/// any local process can forge stored acknowledgements and results, or pose as the sink.
struct KeyOptions: ParsableArguments {
    static let environmentVariable = "GRIDLOCK_KEYS"

    @Option(help: "A key directory from `gridlock keys generate` (config: cluster.keys; environment: GRIDLOCK_KEYS): CURVE, every connection encrypted, and only the listed keys admitted.")
    var keys: String?

    @Option(help: "A shared cluster key from `gridlock key` (config: cluster.key_file): frames tagged, not encrypted, for one trusted network. A role given neither this nor --keys refuses to start, unless --insecure.")
    var keyFile: String?

    @Flag(help: "Run with no keys (config: cluster.insecure = true): any process that reaches the ports can take jobs, forge results and acknowledgements, or pose as a role. Said at start and kept in the batch's record. For a throw-away test on one machine; `gridlock batch` needs none of this.")
    var insecure = false

    /// The role's protection, and what to warn of: with none, an endpoint it binds or reaches
    /// that is not on this machine; loose modes on secret files.
    func load(_ file: ClusterConfig, role: ClusterRole, endpoints: [String]) throws -> (RoleSecurity, warnings: [String]) {
        try Self.checkPorts(endpoints)
        // The environment's directory only when the command line names no key: a `gridlock
        // batch` run where GRIDLOCK_KEYS is exported gives its workers its own --key-file.
        let environment = keys != nil || keyFile != nil
            ? nil : ProcessInfo.processInfo.environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        let directory = keys ?? environment ?? file.string("cluster.keys")
        let sharedKeyFile = keyFile ?? file.string("cluster.key_file")
        // Keys given anywhere win over the config's `cluster.insecure`: a config file never
        // weakens a role; --insecure beside them is a contradiction, refused.
        if self.insecure, directory != nil || sharedKeyFile != nil {
            throw ValidationError("--insecure, yet \(directory != nil ? "keys (--keys, GRIDLOCK_KEYS or cluster.keys)" : "a key file (--key-file or cluster.key_file)") given: give one or the other")
        }
        if let directory {
            guard sharedKeyFile == nil else {
                throw ValidationError("give --keys (CURVE) or --key-file (a shared key), not both")
            }
            let keys: RoleKeys
            do {
                keys = try KeyDirectory.load(directory, as: role)
            } catch let error as ClusterError {
                throw ValidationError("--keys \(directory): \(error.description)")
            }
            return (.curve(keys), keys.warnings)
        }
        let remote = endpoints.filter { !Endpoint.isOnThisMachine($0) }
        let insecure = self.insecure || file.bool("cluster.insecure") == true
        guard let path = sharedKeyFile else {
            guard insecure else { throw ValidationError(Self.noKeys(role: role)) }
            let exposure = remote.first.map { "\($0) is open to other machines, frames cross the network unencrypted, and any process that reaches it" }
                ?? "any process on this machine"
            return (.insecure, ["WARNING: --insecure, no keys: \(exposure) can take jobs, forge results and acknowledgements, or pose as a role "
                + "(`gridlock keys generate DIR`, then --keys DIR for every role)"])
        }
        var warnings = remote.first.map { ["\($0) is open to other machines with a --key-file: frames are tagged but not encrypted; --keys (CURVE) encrypts them"] } ?? []
        let key = try Self.readSharedKey(path, warnings: &warnings)
        return (.sharedKey(key), warnings)
    }

    /// The refusal of a role started with no keys: what it guards against, and the commands that
    /// fix it.
    static func noKeys(role: ClusterRole) -> String {
        """
        the \(role.rawValue) needs keys: without them any process that reaches its ports can forge results or pose as a role. \
        Either CURVE keys (copy the directory to every machine; every role the same --keys):
          gridlock keys generate cluster-keys
          gridlock \(role.rawValue) --keys cluster-keys ...
        or, on one trusted network, a shared key file:
          gridlock key cluster.key
          gridlock \(role.rawValue) --key-file cluster.key ...
        or, for a throw-away test on this machine: --insecure (said at start and in the batch's record)
        """
    }

    /// Refuses an endpoint whose TCP port is out of range (Endpoint.problem), as a usage error.
    static func checkPorts(_ endpoints: [String]) throws {
        for endpoint in endpoints { if let problem = Endpoint.problem(endpoint) { throw ValidationError(problem) } }
    }

    static func readSharedKey(_ path: String, warnings: inout [String]) throws -> ClusterKey {
        // At most 4 KiB (a key is 33 bytes), and a regular file: `--key-file /dev/zero` or a
        // FIFO must not hang the start-up.
        let data: [UInt8]
        do {
            data = try SmallFile.read(path, limit: 4_096)
        } catch {
            throw ValidationError("the key file: \(error.description)")
        }
        guard let key = ClusterKey(hex: String(decoding: data, as: UTF8.self)) else {
            throw ValidationError("the key file \(path) must hold one key of 32 hexadecimal digits, as `gridlock key` prints")
        }
        // As ssh does with private keys: a key others can read is no secret. Said, not refused,
        // so a shared mount with loose modes still runs.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o077 != 0 {
            warnings.append("the key file \(path) can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))): chmod 600 it")
        }
        return key
    }
}
