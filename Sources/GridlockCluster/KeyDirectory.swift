// The keys of a CURVE cluster on disk, as `gridlock keys generate DIR` writes them:
//
//   DIR/coordinator.key   the coordinator's key pair      (secret: mode 600)
//   DIR/sink.key          the sink's key pair             (secret: mode 600)
//   DIR/worker.key        the workers' key pair           (secret: mode 600)
//   DIR/lease.key         the coordinator's and the sink's shared lease key (ClusterKey.swift)
//   DIR/allowed           the public keys the coordinator and the sink admit: `ROLE KEY` lines
//
// Each role reads only what it needs: a worker its own pair and `allowed` (for the servers'
// public keys), so a worker machine can be given three files and no other secret. More workers
// keys can be added to `allowed` by hand (one `worker KEY` line each). Keys are Z85 (40
// characters), as libzmq writes them.

import Foundation
import GridlockClusterBase
import GridlockWire
import ZeroMQ

public enum ClusterRole: String, Sendable, Hashable, CaseIterable {
    case coordinator, sink, worker
}

/// What one role holds of a key directory.
public struct RoleKeys: Sendable {
    public var role: ClusterRole
    public var own: CurveKeyPair
    /// The servers' public keys, which their clients must name.
    public var coordinator: CurveKey
    public var sink: CurveKey
    public var allowlist: CurveAllowlist
    /// The lease key: the coordinator's and the sink's only.
    public var lease: ClusterKey?
    /// Said at start-up, not refused: secret files that others can read.
    public var warnings: [String] = []

    /// The bound socket of this role, as a CURVE server: the jobs socket or the results socket.
    public var server: CurveRole {
        .server(own: own, domain: role == .sink ? CurveAllowlist.resultsDomain : CurveAllowlist.jobsDomain)
    }

    /// A connection of this role to `peer`'s bound socket.
    public func client(of peer: ClusterRole) -> CurveRole {
        .client(own: own, server: peer == .sink ? sink : coordinator)
    }
}

/// Who may connect where: the ZAP handler's policy, a pure function of the request.
public struct CurveAllowlist: Sendable, Hashable {
    /// The ZAP domains of the two bound sockets.
    public static let jobsDomain = "gridlock.jobs"
    public static let resultsDomain = "gridlock.results"

    public var entries: [CurveKey: ClusterRole]

    /// The roles that connect to each bound socket: workers and the sink to the coordinator's
    /// jobs socket, workers and the coordinator (its failed jobs) to the sink's results.
    static func admitted(on domain: String) -> Set<ClusterRole> {
        switch domain {
        case jobsDomain: [.worker, .sink]
        case resultsDomain: [.worker, .coordinator]
        default: []
        }
    }

    public func decide(_ request: ZAPRequest) -> ZAPDecision {
        guard request.mechanism == "CURVE", let key = request.publicKey else {
            return .deny(reason: "\(request.mechanism) is not CURVE")
        }
        guard let role = entries[key] else { return .deny(reason: "public key \(key.z85) is not in the allowlist") }
        guard Self.admitted(on: request.domain).contains(role) else {
            return .deny(reason: "a \(role.rawValue) key may not connect to \(request.domain)")
        }
        return .allow(user: role.rawValue)
    }
}

public enum KeyDirectory {
    static let allowlistName = "allowed"
    static let leaseKeyName = "lease.key"
    static let largestKeyFile = 4_096
    static let largestAllowlist = 1 << 20

    static func keyPairName(_ role: ClusterRole) -> String { "\(role.rawValue).key" }

    /// Writes a new key directory: fresh key pairs, the allowlist, the lease key. The directory
    /// may exist only empty: keys are never overwritten (another cluster may hold them).
    /// Returns the files written.
    @discardableResult
    public static func generate(at directory: String) throws -> [String] {
        if mkdir(directory, 0o700) != 0 {
            guard errno == EEXIST else { throw ClusterError("cannot make the key directory \(directory): \(String(cString: strerror(errno)))") }
            let present = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? ["?"]
            guard present.isEmpty else {
                throw ClusterError("the key directory \(directory) is not empty (keys are never overwritten: name a new directory)")
            }
            // An empty directory someone else made, or that others may write to, would let them
            // swap the allowlist or a key later.
            var status = stat()
            guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid(),
                  status.st_mode & 0o022 == 0 else {
                throw ClusterError("the key directory \(directory) must be a directory of yours that no one else can write to (or not exist yet)")
            }
        }
        var pairs: [ClusterRole: CurveKeyPair] = [:]
        for role in ClusterRole.allCases { pairs[role] = try CurveKeyPair.generate() }
        var written: [String] = []
        for role in ClusterRole.allCases {
            let pair = pairs[role]!
            let path = "\(directory)/\(keyPairName(role))"
            try SecretFile.create(at: path, mode: 0o600, text: """
                # The Gridlock \(role.rawValue)'s CURVE key pair. Secret: keep it readable by its owner only.
                public = \(pair.publicKey.z85)
                secret = \(pair.secretKey.z85)

                """)
            written.append(path)
        }
        let lease = "\(directory)/\(leaseKeyName)"
        try SecretFile.create(at: lease, mode: 0o600, text: """
            # The lease key of the coordinator and the sink (workers never hold it). Secret.
            \(ClusterKey.random().hex)

            """)
        written.append(lease)
        let allowlist = "\(directory)/\(allowlistName)"
        try SecretFile.create(at: allowlist, mode: 0o644, text: """
            # The public keys the coordinator and the sink admit, one `ROLE KEY` a line (roles:
            # coordinator, sink, worker). Add a line per extra worker key pair; exactly one
            # coordinator and one sink line, whose keys the other roles trust as the servers'.
            \(ClusterRole.allCases.map { "\($0.rawValue) \(pairs[$0]!.publicKey.z85)" }.joined(separator: "\n"))

            """)
        written.append(allowlist)
        return written
    }

    /// What `role` needs of the directory, with errors that name the file, the line and what
    /// is wrong.
    public static func load(_ directory: String, as role: ClusterRole) throws -> RoleKeys {
        var warnings: [String] = []
        let pairPath = "\(directory)/\(keyPairName(role))"
        let own = try readKeyPair(pairPath, role: role)
        warnings += SecretFile.looseModeWarning(pairPath).map { [$0] } ?? []
        let allowlistPath = "\(directory)/\(allowlistName)"
        let (allowlist, servers) = try readAllowlist(allowlistPath)
        guard allowlist.entries[own.publicKey] == role else {
            throw ClusterError("\(allowlistPath) does not list \(pairPath)'s public key as `\(role.rawValue)`: the other roles would refuse this \(role.rawValue)")
        }
        var lease: ClusterKey?
        if role != .worker {
            let path = "\(directory)/\(leaseKeyName)"
            let text = try SecretFile.read(path, limit: largestKeyFile, needed: "the \(role.rawValue)")
            let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
            guard lines.count == 1, let key = ClusterKey(hex: String(lines[0])) else {
                throw ClusterError("\(path) must hold one key of 32 hexadecimal digits (`gridlock keys generate` writes it)")
            }
            lease = key
            warnings += SecretFile.looseModeWarning(path).map { [$0] } ?? []
        }
        return RoleKeys(
            role: role, own: own, coordinator: servers.coordinator, sink: servers.sink, allowlist: allowlist, lease: lease,
            warnings: warnings)
    }

    static func readKeyPair(_ path: String, role: ClusterRole) throws -> CurveKeyPair {
        let text = try SecretFile.read(path, limit: largestKeyFile, needed: "the \(role.rawValue)")
        var publicKey: CurveKey?
        var secretKey: CurveKey?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let parts = trimmed.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let where_ = "\(path):\(index + 1)"
            guard parts.count == 2, ["public", "secret"].contains(parts[0]) else {
                throw ClusterError("\(where_): expected `public = KEY` or `secret = KEY`")
            }
            // The text of a bad secret is never echoed.
            guard let key = CurveKey(z85: parts[1]) else {
                throw ClusterError("\(where_): the \(parts[0]) key is not 40 characters of Z85")
            }
            if parts[0] == "public" { publicKey = key } else { secretKey = key }
        }
        guard let secretKey, let pair = CurveKeyPair(secretKey: secretKey) else {
            throw ClusterError("\(path) holds no `secret = KEY` line")
        }
        if let publicKey, publicKey != pair.publicKey {
            throw ClusterError("\(path): the public key is not the secret key's (a file pasted from two pairs?)")
        }
        return pair
    }

    static func readAllowlist(_ path: String) throws -> (CurveAllowlist, servers: (coordinator: CurveKey, sink: CurveKey)) {
        let text = try SecretFile.read(path, limit: largestAllowlist, needed: "every role")
        var entries: [CurveKey: ClusterRole] = [:]
        var servers: [ClusterRole: CurveKey] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let where_ = "\(path):\(index + 1)"
            let words = trimmed.split(whereSeparator: \.isWhitespace)
            guard words.count == 2, let role = ClusterRole(rawValue: String(words[0])) else {
                throw ClusterError("\(where_): expected `ROLE KEY`, ROLE one of coordinator, sink, worker")
            }
            guard let key = CurveKey(z85: words[1]) else { throw ClusterError("\(where_): `\(words[1])` is not 40 characters of Z85") }
            if let earlier = entries[key], earlier != role {
                throw ClusterError("\(where_): this key is listed as \(earlier.rawValue) already; one key, one role")
            }
            entries[key] = role
            if role != .worker {
                guard servers[role] == nil || servers[role] == key else {
                    throw ClusterError("\(where_): a second \(role.rawValue) key; the allowlist names one \(role.rawValue), whose key the other roles trust")
                }
                servers[role] = key
            }
        }
        guard let coordinator = servers[.coordinator], let sink = servers[.sink] else {
            throw ClusterError("\(path) must list one `coordinator KEY` and one `sink KEY` line")
        }
        return (CurveAllowlist(entries: entries), (coordinator, sink))
    }
}

/// Small files that hold keys: created once with their mode, read with a bound, checked for
/// modes that let others read a secret.
enum SecretFile {
    static func create(at path: String, mode: mode_t, text: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "it exists (keys are never overwritten: remove it first)" : String(cString: strerror(errno))
            throw ClusterError("cannot write \(path): \(reason)")
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            let reason = String(cString: strerror(errno))
            unlink(path)
            throw ClusterError("cannot write \(path): \(reason)")
        }
    }

    /// The file's text, at most `limit` bytes (SmallFile: no FIFO or device can hang a start-up).
    static func read(_ path: String, limit: Int, needed by: String) throws -> String {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(path, limit: limit)
        } catch {
            let hint = error.reason == "it does not exist" ? " (`gridlock keys generate DIR` writes it; \(by) needs it)" : ""
            throw ClusterError("\(error.description)\(hint)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ClusterError("\(path) is not UTF-8 text: not a key file") }
        return text
    }

    /// As ssh does with private keys: a secret that others can read is said, not refused, so a
    /// shared mount with loose modes still runs.
    static func looseModeWarning(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o077 != 0 else { return nil }
        return "the secret \(path) can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))): chmod 600 it"
    }
}
