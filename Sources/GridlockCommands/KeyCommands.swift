// The cluster key of separate roles: `gridlock key` makes one, `--key-file` reads it
// (ClusterKey.swift says what it protects).

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockWire

struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Make a new random cluster key, for --key-file: printed, or written to a new file (mode 600).",
        discussion: """
            The coordinator, the sink and the workers of one cluster read the same key file; \\
            with it, only they can speak for each other, the coordinator hands jobs only to \\
            workers that hold the key, and the sink stores a result only for a job the \\
            coordinator handed out. `gridlock batch` makes its own for each run and gives it to \\
            its workers.

            With FILE, the key is written there, readable by its owner only (mode 600); an \\
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

/// `--key-file`, for the coordinator, the sink and the workers.
struct KeyOptions: ParsableArguments {
    @Option(help: "The cluster key shared by the coordinator, the sink and the workers (`gridlock key` makes one; config: cluster.key_file). Without it, any process that reaches the ports can pose as the sink, take jobs and answer them wrongly, or store results for jobs it was never given.")
    var keyFile: String?

    /// The key, or nil (with a warning from `role`, if `warn`) when none is given.
    func load(_ file: ClusterConfig, role: String, warn: Bool = true) throws -> ClusterKey? {
        guard let path = keyFile ?? file.string("cluster.key_file") else {
            if warn {
                StandardError.write("\(role): no --key-file: the wire is not authenticated, so any process that reaches the ports can forge frames\n")
            }
            return nil
        }
        // At most 4 KiB: a key is 33 bytes, and `--key-file /dev/zero` must not hang.
        // An empty file reads as nil data, not an error: it is a file without a key.
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.read(upToCount: 4_096) ?? Data() else {
            throw ValidationError("cannot read the key file \(path): \(String(cString: strerror(errno)))")
        }
        try? handle.close()
        guard let key = ClusterKey(hex: String(decoding: data, as: UTF8.self)) else {
            throw ValidationError("the key file \(path) must hold one key of 32 hexadecimal digits, as `gridlock key` prints")
        }
        // As ssh does with private keys: a key others can read is no secret. Said, not refused,
        // so a shared mount with loose modes still runs.
        var status = stat()
        if warn, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o077 != 0 {
            StandardError.write("\(role): the key file \(path) can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))): chmod 600 it\n")
        }
        return key
    }
}
