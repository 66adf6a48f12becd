// Text from outside printed safely: control characters escaped, plain text untouched.

@testable import GridlockCore
import Testing

@Suite struct PrintableTextTests {
    @Test("every C0 control, DEL and C1 control is escaped; printable text, accents and emoji are not")
    func controlsAreEscaped() {
        #expect("evil\u{1B}[31m\r\nname\u{07}\t\u{7F}\u{85}".printable == "evil\\u{1B}[31m\\u{D}\\u{A}name\\u{7}\\u{9}\\u{7F}\\u{85}")
        #expect("plain text, ÆØÅ, 🧩 | \"quoted\"".printable == "plain text, ÆØÅ, 🧩 | \"quoted\"")
        #expect("".printable == "")
        // A right-to-left override would make "evil.exe‮gnp" read as "evil.exepng".
        #expect("a\u{202E}b\u{2066}c\u{2069}".printable == "a\\u{202E}b\\u{2066}c\\u{2069}")
        #expect("\u{200F}Hebrew \u{05D0}".printable == "\u{200F}Hebrew \u{05D0}")
    }

    @Test("tables escape their cells: no control character in aligned text, no row split or extra column in Markdown")
    func tablesEscapeCells() {
        let header = ["name", "count"]
        let rows = [["a\r\nb|c\u{1B}", "1"]]
        let aligned = TextTable.aligned(header: header, rows: rows)
        #expect(!aligned.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(aligned.split(separator: "\n").count == 2)
        let markdown = TextTable.markdown(header: header, rows: rows)
        let lines = markdown.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[2] == "| a\\u{D}\\u{A}b\\|c\\u{1B} | 1 |")
    }

    @Test("an excerpt is at most 80 characters of the text, printable, with the whole length said")
    func excerpts() {
        #expect("short".excerpt() == "short")
        #expect(String(repeating: "x", count: 80).excerpt() == String(repeating: "x", count: 80))
        #expect(String(repeating: "x", count: 81).excerpt() == String(repeating: "x", count: 80) + "... (81 bytes in all)")
        #expect("a\u{1B}b".excerpt(2) == "a\\u{1B}... (3 bytes in all)")
        // One Character of a letter and 100,000 combining accents is still cut.
        let accents = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(accents.count == 1 && accents.excerpt().utf8.count < 200)
    }

    @Test("a JSON key given twice in one object is found; the same key in other objects, in strings or in arrays is not")
    func duplicateJSONKeys() {
        func first(_ text: String) -> String? { PuzzleJSON.firstDuplicateKey(in: Array(text.utf8)) }
        #expect(first(#"{"width":6,"height":6,"width":7}"#) == "width")
        #expect(first(#"{"a":{"x":1,"y":{"x":2},"x":3}}"#) == "x")
        #expect(first(#"{"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":2}]}"#) == nil)
        #expect(first(#"{"a":"b","c":"{\"a\":1,\"a\":2}","d":["a","a"]}"#) == nil)
        #expect(first(#"{"a\"":1,"a":2}"#) == nil)
        #expect(first(#"{"a":1,"#) == nil)
    }
}
