// The cluster key of separate roles: `gridlock key` makes one, `--key-file` reads it
// (ClusterKey.swift says what it protects).

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockWire

struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print a new random cluster key, for --key-file.",
        discussion: """
            The coordinator and the sink of one cluster read the same key file; with it, only \\
            they can speak for each other, and the sink stores a result only for a job the \\
            coordinator handed out. Workers need no key. `gridlock batch` makes its own for each run.

            Example:
              gridlock key > gridlock.key && chmod 600 gridlock.key
              gridlock sink --key-file gridlock.key ...
              gridlock coordinator FILE --batch big --key-file gridlock.key ...
            """
    )

    func run() throws {
        print(ClusterKey.random().hex)
    }
}

/// `--key-file`, for the coordinator and the sink.
struct KeyOptions: ParsableArguments {
    @Option(help: "The cluster key shared by the coordinator and the sink (`gridlock key` makes one; config: cluster.key_file). Without it, any process that reaches the ports can pose as the sink or store results for jobs it was never given.")
    var keyFile: String?

    /// The key, or nil (with a warning from `role`) when none is given.
    func load(_ file: ClusterConfig, role: String) throws -> ClusterKey? {
        guard let path = keyFile ?? file.string("cluster.key_file") else {
            StandardError.write("\(role): no --key-file: the wire is not authenticated, so any process that reaches the ports can forge frames\n")
            return nil
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("cannot read the key file \(path): \(String(cString: strerror(errno)))")
        }
        guard let key = ClusterKey(hex: text) else {
            throw ValidationError("the key file \(path) must hold one key of 32 hexadecimal digits, as `gridlock key` prints")
        }
        return key
    }
}
