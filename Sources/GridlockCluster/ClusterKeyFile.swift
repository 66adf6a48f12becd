// A cluster key on disk: written once, readable by its owner only, as `gridlock key FILE` and a
// batch (for its own workers) write it.

import Foundation
import GridlockClusterBase
import GridlockWire

public enum ClusterKeyFile {
    /// Creates `path` holding `key` as `gridlock key` prints it, mode 600. An existing file is
    /// never overwritten: it may be another cluster's key.
    public static func create(_ key: ClusterKey, at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "it exists (a key is never overwritten: remove it first)" : String(cString: strerror(errno))
            throw ClusterError("cannot write the key file \(path): \(reason)")
        }
        defer { close(descriptor) }
        let text = Array((key.hex + "\n").utf8)
        guard text.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == text.count else {
            let reason = String(cString: strerror(errno))
            unlink(path)
            throw ClusterError("cannot write the key file \(path): \(reason)")
        }
    }
}
