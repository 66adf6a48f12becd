// Reading a small file an operator names (a key, an allowlist, a config file) without the ways
// it can go wrong at start-up: a FIFO or a socket would block the open or the read for ever,
// `/dev/zero` would never end, and a huge file would be read whole. Opened without blocking,
// required to be a regular file (a symbolic link to one, as Kubernetes mounts secrets, is one),
// and read no further than its limit.

import Foundation

public enum SmallFile {
    public struct Problem: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot read \(path): \(reason)" }
    }

    /// Why a path that opens no file is missing. Swift reads a name's bytes as UTF-8 and puts
    /// U+FFFD for any that are not (a Latin-1 "é" from an old disk): such a name can never be
    /// opened, and "it does not exist" beside a file the user sees would be a riddle.
    public static func missing(_ path: String) -> String {
        path.contains("\u{FFFD}")
            ? "it does not exist under that name: bytes of the name that are not UTF-8 reach gridlock as \u{FFFD}; rename the file"
            : "it does not exist"
    }

    /// The file's bytes, or why not.
    public static func read(_ path: String, limit: Int) throws(Problem) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Problem(path: path, reason: errno == ENOENT ? missing(path) : String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Problem(path: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let what = switch status.st_mode & S_IFMT {
            case S_IFDIR: "a directory"
            case S_IFIFO: "a FIFO"
            case S_IFSOCK: "a socket"
            case S_IFCHR, S_IFBLK: "a device"
            default: "not a regular file"
            }
            throw Problem(path: path, reason: "it is \(what), not a file")
        }
        guard status.st_size <= limit else { throw Problem(path: path, reason: "it is over \(limit) bytes") }
        // Sized by the file, not the limit (a picture's 64 MiB limit, zeroed for each file, cost
        // scan most of its time); grown if the file grows while it is read, up to the limit.
        var bytes = [UInt8](repeating: 0, count: min(limit, max(4_096, Int(status.st_size))) + 1)
        var count = 0
        while count <= limit {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count)) }
            let got = bytes[count...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw Problem(path: path, reason: String(cString: strerror(errno)))
            }
            count += got
        }
        guard count <= limit else { throw Problem(path: path, reason: "it is over \(limit) bytes") }
        return Array(bytes[0..<count])
    }
}
