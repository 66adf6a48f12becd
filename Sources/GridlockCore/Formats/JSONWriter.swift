// JSON written straight into bytes, member by member: for the reports printed by the thousand,
// where a JSONEncoder per object was a third of `solve --format json`'s time (it boxes every
// value, then sorts every object's keys). The writer's output is JSONLine's byte for byte when
// the caller writes each object's keys in byte order, as JSONLine sorts them: numbers as
// JSONEncoder writes them (a whole Double without its ".0"), strings escaped as it escapes
// them, slashes left alone. The tests hold the two side by side. (Foundation on Linux sorts keys
// by their bytes; Apple's sorts without case and numbers by value. No two keys written here
// order differently either way.)

/// A value that writes itself as JSON: an object, in its keys' byte order.
public protocol JSONWritable {
    func write(to writer: inout JSONWriter)
}

public struct JSONWriter {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// An object; `members` writes its keys and values.
    public mutating func object(_ members: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        members(&self)
        bytes.append(UInt8(ascii: "}"))
    }

    /// An array; `elements` writes its values.
    public mutating func array(_ elements: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        elements(&self)
        bytes.append(UInt8(ascii: "]"))
    }

    /// A member's key; its value follows. Keys are the code's own, plain ASCII.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func value(_ number: Int) {
        separate()
        if number < 0 {
            bytes.append(UInt8(ascii: "-"))
            // The magnitude as unsigned: Int.min has none as an Int.
            digits(number.magnitude)
        } else {
            digits(UInt(number))
        }
    }

    /// As JSONEncoder writes it: Swift's shortest form that reads back the same, a whole
    /// number without its ".0". JSON has no NaN or infinity (JSONEncoder throws): null.
    public mutating func value(_ number: Double) {
        separate()
        guard number.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func value(_ flag: Bool) {
        separate()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    /// Escaped as JSONEncoder escapes: a quote, a backslash and the control characters below
    /// U+0020 (the usual five by their letters, the rest as \u00XX); everything else as UTF-8.
    public mutating func value(_ string: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var plainFrom = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom..<index]))
                escape(byte)
                plainFrom = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func values(_ numbers: [Int]) {
        array { for number in numbers { $0.value(number) } }
    }

    public mutating func values(_ strings: [String]) {
        array { for string in strings { $0.value(string) } }
    }

    /// A member left out when nil, as a synthesized Encodable leaves out an optional.
    public mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    public mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    public mutating func member(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    public mutating func member(_ name: StaticString, _ value: (some JSONWritable)?) {
        guard let value else { return }
        key(name)
        value.write(to: &self)
    }

    public mutating func member(_ name: StaticString, _ values: [some JSONWritable]?) {
        guard let values else { return }
        key(name)
        array { for value in values { value.write(to: &$0) } }
    }

    public mutating func member(_ name: StaticString, _ values: [Int]?) {
        guard let values else { return }
        key(name)
        self.values(values)
    }

    /// A comma before any value that does not open its object or array, or follow its key.
    private mutating func separate() {
        guard let last = bytes.last else { return }
        if last != UInt8(ascii: "{"), last != UInt8(ascii: "["), last != UInt8(ascii: ":") {
            bytes.append(UInt8(ascii: ","))
        }
    }

    private mutating func digits(_ number: UInt) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt.max has 20 digits
        withUnsafeMutableBytes(of: &scratch) { scratch in
            var rest = number, at = scratch.count
            repeat {
                at -= 1
                scratch[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: scratch[at...])
        }
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }
}
