// A pattern database's table bytes, read-only once made: either memory of this process (tables
// built here, or the tests' small ones) or memory someone else owns and releases, such as a
// read-only mapping of the cache file (PatternDatabaseCache.swift). A mapping's pages are the
// file's page cache, so every process that maps the same file shares one copy: a batch's
// workers hold 7-8's 550 MiB once between them, where reading the file into an array gave each
// worker a private copy. The core makes no system call here; whoever maps the file says how to
// release it.

public final class PatternTableBytes: @unchecked Sendable {
    public let count: Int
    private let base: UnsafeRawPointer
    private let bytes: UnsafePointer<UInt8>
    private let release: @Sendable (UnsafeRawPointer) -> Void

    /// Bytes of this process's own: copied once into memory the tables own.
    public convenience init(_ bytes: [UInt8]) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 64)
        bytes.withUnsafeBytes { source in
            if let from = source.baseAddress { memory.copyMemory(from: from, byteCount: source.count) }
        }
        self.init(unsafeBase: UnsafeRawPointer(memory), count: bytes.count) { $0.deallocate() }
    }

    /// `count` bytes at `base`, which must stay readable and unchanged until `release(base)`,
    /// called once, when the last holder of the tables lets go.
    public init(unsafeBase base: UnsafeRawPointer, count: Int, release: @escaping @Sendable (UnsafeRawPointer) -> Void) {
        self.base = base
        bytes = base.bindMemory(to: UInt8.self, capacity: count)
        self.count = count
        self.release = release
    }

    deinit { release(base) }

    public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "pattern table index out of range")
        return bytes[index]
    }

    /// The bytes, valid inside `body` (the tables are kept alive for it).
    public func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) {
            try body(UnsafeBufferPointer(start: bytes, count: count))
        }
    }
}
