// The byte-level reader and writer behind every Gridlock message.
//
//   unsigned integers   LEB128 varint: 7 bits a byte, low first, high bit = more (1-10 bytes)
//   signed integers     zigzag, then varint (-1 is one byte)
//   doubles             8 bytes, IEEE 754 bit pattern, little-endian
//   strings, bytes      varint length, then the bytes (UTF-8 for strings)
//   lists               varint count, then the elements
//
// The reader never traps on hostile input: every read checks the remaining length and limits,
// and a bad frame becomes a `WireError` that the receiver counts and drops.

/// Why a frame could not be decoded.
public enum WireError: Error, Sendable, Hashable, CustomStringConvertible {
    case truncated
    case badMagic
    case unsupportedVersion(UInt8)
    case unknownKind(UInt8)
    case malformed(String)
    case trailingBytes(Int)

    public var description: String {
        switch self {
        case .truncated: "frame ends early"
        case .badMagic: "not a Gridlock frame (bad magic)"
        case .unsupportedVersion(let version): "protocol version \(version) is not supported (this build speaks \(WireProtocol.version))"
        case .unknownKind(let kind): "unknown message kind \(kind)"
        case .malformed(let what): "malformed \(what)"
        case .trailingBytes(let count): "\(count) unexpected bytes after the message"
        }
    }
}

/// Appends encoded values to a byte array.
public struct WireWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// A writer with room for `capacity` bytes, when the caller knows about how many it writes.
    public init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    public mutating func int(_ value: Int) {
        let value = Int64(value)
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func double(_ value: Double) {
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    public mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    public mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    public mutating func string(_ value: String) {
        // Straight from the string's bytes: copying them into an array first cost an allocation
        // per string, several per job.
        unsigned(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    public mutating func optionalInt(_ value: Int?) {
        bool(value != nil)
        if let value { int(value) }
    }

    public mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    public mutating func list<T>(_ values: [T], _ element: (inout WireWriter, T) -> Void) {
        unsigned(UInt64(values.count))
        for value in values { element(&self, value) }
    }
}

/// Reads encoded values from a frame, failing cleanly on anything short or absurd.
public struct WireReader: Sendable {
    private let bytes: [UInt8]
    private var offset: Int
    /// The last string read at each `repeatedString` slot, reused when the next has the same
    /// bytes: a frame's results share their batch, solver and host, and a new String for each
    /// was an allocation and a UTF-8 check apiece.
    private var recent: [String] = []

    /// The longest string or list a frame may declare: a guard against lengths that would make
    /// the reader allocate gigabytes from a few hostile bytes.
    public static let maximumLength = 16 << 20

    public init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var remaining: Int { bytes.count - offset }

    public mutating func unsigned() throws(WireError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw .truncated }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64 else { throw .malformed("varint") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    public mutating func int() throws(WireError) -> Int {
        let raw = try unsigned()
        return Int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    public mutating func double() throws(WireError) -> Double {
        guard remaining >= 8 else { throw .truncated }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        offset += 8
        return Double(bitPattern: bits)
    }

    public mutating func byte() throws(WireError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        offset += 1
        return bytes[offset - 1]
    }

    public mutating func bool() throws(WireError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw .malformed("boolean")
        }
    }

    public mutating func length(_ what: String) throws(WireError) -> Int {
        let length = try unsigned()
        guard length <= UInt64(Self.maximumLength) else { throw .malformed("\(what) length \(length)") }
        return Int(length)
    }

    /// A name (a batch, a host, a solver): at most `WireProtocol.maximumNameBytes`, so that no
    /// peer can make a role keep megabytes in a table of workers. Repeats within a frame, so it
    /// is remembered in `slot` (0 to 7).
    public mutating func name(slot: Int) throws(WireError) -> String {
        try repeatedString(slot: slot, maximumBytes: WireProtocol.maximumNameBytes)
    }

    /// A string that often repeats within a frame, remembered in `slot` (0 to 7).
    public mutating func repeatedString(slot: Int, maximumBytes: Int = maximumLength) throws(WireError) -> String {
        let start = offset
        let length = try self.length("string")
        guard length <= maximumBytes else { throw .malformed("string of \(length) bytes, over \(maximumBytes)") }
        guard remaining >= length else { throw .truncated }
        if recent.isEmpty { recent = Array(repeating: "", count: 8) }
        let slice = bytes[offset..<(offset + length)]
        if recent[slot].utf8.count == length, recent[slot].utf8.elementsEqual(slice) {
            offset += length
            return recent[slot]
        }
        offset = start
        let string = try string(maximumBytes: maximumBytes)
        recent[slot] = string
        return string
    }

    public mutating func string(maximumBytes: Int = maximumLength) throws(WireError) -> String {
        let length = try length("string")
        guard length <= maximumBytes else { throw .malformed("string of \(length) bytes, over \(maximumBytes)") }
        guard remaining >= length else { throw .truncated }
        let slice = bytes[offset..<(offset + length)]
        offset += length
        guard let string = Self.validString(slice) else { throw .malformed("UTF-8 string") }
        return string
    }

    /// The bytes as a string if they are UTF-8. ASCII (nearly every puzzle, name and path) is
    /// checked with a plain loop and decoded, which cannot repair anything in it; the rest goes
    /// through `String(validating:)`, whose generic path looked up type metadata at run time
    /// for every string of every frame.
    static func validString(_ slice: ArraySlice<UInt8>) -> String? {
        slice.withUnsafeBufferPointer { buffer in
            var high: UInt8 = 0
            for byte in buffer { high |= byte }
            return high < 0x80 ? String(decoding: buffer, as: UTF8.self) : String(validating: buffer, as: UTF8.self)
        }
    }

    public mutating func optionalInt() throws(WireError) -> Int? {
        try bool() ? try int() : nil
    }

    public mutating func optionalString() throws(WireError) -> String? {
        try bool() ? try string() : nil
    }

    public mutating func list<T>(maximumCount: Int = .max, _ element: (inout WireReader) throws(WireError) -> T) throws(WireError) -> [T] {
        let count = try length("list")
        // Checked before any room is made: a count the frame could hold may still be far past
        // what the reader takes.
        guard count <= maximumCount else { throw .malformed("list of \(count) entries, over \(maximumCount)") }
        // Every element takes at least one byte, so a longer list cannot be in the frame.
        guard count <= remaining else { throw .truncated }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try element(&self)) }
        return values
    }

    /// Fails unless the whole frame was read.
    public func finish() throws(WireError) {
        if remaining != 0 { throw .trailingBytes(remaining) }
    }
}
