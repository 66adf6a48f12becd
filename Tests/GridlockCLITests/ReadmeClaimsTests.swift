// What the docs say of the output, checked against the binary: every key of
// `solve --format json` is named in docs/formats.md's list of keys (the README's until issue 46).

import Foundation
import Testing

@Suite("README claims")
struct ReadmeClaimsTests {
    static var readme: String {
        get throws { try String(contentsOf: GridlockBinary.repository.appendingPathComponent("docs/formats.md"), encoding: .utf8) }
    }

    /// Every key in objects and nested objects (not inside arrays of moves).
    static func keys(_ object: [String: Any], prefix: String = "") -> Set<String> {
        var found: Set<String> = []
        for (key, value) in object {
            found.insert(key)
            if let nested = value as? [String: Any], key == "stats" { found.formUnion(keys(nested)) }
        }
        return found
    }

    @Test("docs/formats.md's list of solve's JSON keys names every key the output has")
    func jsonKeys() throws {
        let inputs: [[String]] = [
            ["data/samples/unblockme.txt"],
            ["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", "--count", "2"],
            ["8 6 7 2 5 4 3 0 1", "--solver", "idastar-pdb"],
            ["23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo", "--max-states", "10"],
            ["1 2 3 4 5 6 8 7 0"],
            ["not a puzzle"],
        ]
        var produced: Set<String> = []
        for input in inputs {
            let output = try GridlockBinary.run(["solve"] + input + ["--format", "json"])
            for line in output.stdout.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                produced.formUnion(Self.keys(object))
            }
        }
        // The paragraph that lists them, from "solve --format json" to the next blank line.
        let text = try Self.readme
        let start = try #require(text.range(of: "`gridlock solve --format json` prints"))
        let paragraph = text[start.lowerBound...].prefix { _ in true }.components(separatedBy: "\n\n")[0]
        let named = Set(paragraph.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
        let missing = produced.subtracting(named).sorted()
        #expect(produced.count >= 20, "the inputs exercise most keys: \(produced.sorted())")
        #expect(missing.isEmpty, "keys docs/formats.md does not name: \(missing)")
    }
}
