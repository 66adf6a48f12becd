// A JSON puzzle decoded strictly: JSONDecoder takes the last of two equal keys in one object
// ({"width": 6, "width": 7} is a 7-wide board), so a puzzle that says two things would be read
// as one of them without a word. A key given twice is refused, naming it.

import Foundation

enum PuzzleJSON {
    struct DuplicateKey: Error {
        var key: String
    }

    /// `type` from `text`, refusing a key given twice in one object.
    static func decode<Form: Decodable>(_ type: Form.Type, from text: String) throws -> Form {
        let bytes = Array(text.utf8)
        if let key = firstDuplicateKey(in: bytes) { throw DuplicateKey(key: key) }
        return try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// The first key that an object holds twice, compared as written (an escaped spelling of
    /// the same key is not caught); nil for none, and for malformed text, which the decoder
    /// then describes.
    static func firstDuplicateKey(in bytes: [UInt8]) -> String? {
        // One entry per open object or array: the keys seen so far, and whether a key is next.
        var open: [(isObject: Bool, keys: Set<ArraySlice<UInt8>>, keyNext: Bool)] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): open.append((true, [], true))
            case UInt8(ascii: "["): open.append((false, [], false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = open.popLast()
            case UInt8(ascii: ","): if open.last?.isObject == true { open[open.count - 1].keyNext = true }
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                let string = bytes[start..<min(index, bytes.count)]
                // Through the index, never a copy of the entry: a copy held while inserting would
                // make each insert copy the whole set of keys, quadratic in a hostile object's.
                let top = open.count - 1
                if top >= 0, open[top].isObject, open[top].keyNext {
                    open[top].keyNext = false
                    if !open[top].keys.insert(string).inserted { return String(decoding: string, as: UTF8.self) }
                }
            default: break
            }
            index += 1
        }
        return nil
    }
}
