// An answer's JSON, as an outside solver prints it and `gridlock check` reads it:
// {"status":"solved","moves":["B down 2","A right 3"]} or {"status":"unsolvable"}, with an
// optional "stats" object kept as given (within a bound). A Sudoku's answer is its filled grid,
// one text. The output of `solve --format json` is read too (its "solution" lists the moves).

import Foundation

extension AnswerCheck {
    /// An answer that says nothing Gridlock can judge: not JSON, no status, no moves.
    public struct UnreadableAnswer: Error, CustomStringConvertible, Sendable, Hashable {
        public var description: String
    }

    /// What an answer claims, and the solver's own figures (its "stats", as compact JSON).
    public struct Answer: Sendable, Hashable {
        public var claim: Claim
        public var stats: String?
    }

    /// The most of a "stats" object kept: it is stored in every row.
    public static let maximumStatsBytes = 4_096

    /// Reads one JSON object (surrounding white space allowed).
    public static func answer(fromJSON text: String) throws(UnreadableAnswer) -> Answer {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw UnreadableAnswer(description: "the answer is not a JSON object: \(Self.opening(text))")
            }
            object = parsed
        } catch let failure as UnreadableAnswer {
            throw failure
        } catch {
            throw UnreadableAnswer(description: "the answer is not JSON: \(Self.opening(text))")
        }
        return Answer(claim: try claim(in: object), stats: stats(in: object))
    }

    /// The first bytes of a text, escaped, for a message.
    public static func opening(_ text: String) -> String {
        text.isEmpty ? "(nothing)" : "'" + String(text.prefix(80)).printable + (text.count > 80 ? "…'" : "'")
    }

    private static func claim(in object: [String: Any]) throws(UnreadableAnswer) -> Claim {
        guard let status = object["status"] as? String else {
            throw UnreadableAnswer(description: "the answer has no \"status\" (\"solved\" or \"unsolvable\")")
        }
        switch status {
        case "unsolvable":
            return .unsolvable
        case "solved":
            // solve --format json says "moves": 51 (a count) and lists them in "solution".
            let moves = object["moves"] is [Any] || object["moves"] is String ? object["moves"] : object["solution"]
            if let grid = moves as? String { return .filled(grid: grid) }
            guard let texts = moves as? [Any], let strings = texts as? [String] else {
                throw UnreadableAnswer(description: "a solved answer needs \"moves\": a list of texts such as [\"B down 2\"]")
            }
            return .solved(moves: strings)
        default:
            throw UnreadableAnswer(description: "the answer's status is '\(status.excerpt())': it must be \"solved\" or \"unsolvable\"")
        }
    }

    /// The "stats" object as compact JSON. Figures that are no object, or too large to keep,
    /// do not make a right answer wrong: they are replaced by a note saying why they are gone.
    private static func stats(in object: [String: Any]) -> String? {
        guard let stats = object["stats"] else { return nil }
        guard stats is [String: Any], let data = try? JSONSerialization.data(withJSONObject: stats, options: [.sortedKeys]) else {
            return #"{"gridlock":"stats not kept: not a JSON object"}"#
        }
        guard data.count <= maximumStatsBytes else {
            return #"{"gridlock":"stats not kept: \#(data.count) bytes, over \#(maximumStatsBytes)"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}
