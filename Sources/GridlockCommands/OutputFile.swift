// Where a command writes its -o file, and how (issue 48, point 6). A new or regular file is
// replaced whole: written beside it and renamed over it, so a reader never sees it half written
// and a failed write leaves the old one. Anything else is written through, as `cat >` would:
// renaming over a symlink to /proc/self/fd/1 (/dev/stdout) made a regular file and nothing
// reached standard output, a FIFO's reader got nothing, and as root `-o /dev/full` replaced the
// device node. Nothing is written over one of the command's own inputs, through links or not.

import Foundation
import GridlockCluster

enum OutputFile {
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `data` to `path`, unless it is one of `inputs` (by device and inode).
    static func write(_ data: Data, to path: String, inputs: [String]) throws(Refusal) {
        if let target = FileIdentity(path: path), let input = inputs.first(where: { FileIdentity(path: $0) == target }) {
            throw Refusal(description: input == path
                ? "it is this command's input: writing it would destroy it; name another file"
                : "it is \(input), this command's input (through a link): writing it would destroy it; name another file")
        }
        var link = stat()
        let exists = lstat(path, &link) == 0
        let type = link.st_mode & S_IFMT
        if !exists || type == S_IFREG {
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw Refusal(description: (error as NSError).localizedDescription)
            }
            return
        }
        guard type != S_IFDIR else { throw Refusal(description: "it is a directory") }
        // A symlink, a FIFO, a device or a socket's path: opened and written, never replaced.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Refusal(description: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        // The error number of a failed write, or 0: typed throws do not pass through withUnsafeBytes.
        let failure = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int32 in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        guard failure == 0 else { throw Refusal(description: String(cString: strerror(failure))) }
    }
}
