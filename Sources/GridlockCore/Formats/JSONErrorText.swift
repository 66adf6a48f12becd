// What went wrong in a JSON puzzle, in words a user can act on, instead of Foundation's
// multi-line DecodingError dumps.

enum JSONErrorText {
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "malformed JSON" : "bad value at '\(path)'"
        case let duplicate as PuzzleJSON.DuplicateKey:
            return "the key '\(duplicate.key.excerpt())' is given twice in one object: give each key once"
        default:
            return "\(error)"
        }
    }
}
