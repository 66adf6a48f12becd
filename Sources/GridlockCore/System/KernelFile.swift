// Files of /proc and /sys, read to their end. Their reported size is not their length: Linux
// says 0, and under gVisor a read of /proc/cpuinfo through Foundation stopped after two of a
// 16-processor machine's entries, so a batch recorded "2 cores" there. Reading with read(2)
// until it returns 0 takes whatever the kernel gives, whatever the size says.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

public enum KernelFile {
    /// The whole text of `path`, or nil where it cannot be opened or read, is not UTF-8, or
    /// runs past `limit` bytes (no file of /proc or /sys read here comes near 4 MiB; a path
    /// pointed at something endless must not fill memory).
    public static func text(_ path: String, limit: Int = 4 << 20) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > limit { return nil }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
