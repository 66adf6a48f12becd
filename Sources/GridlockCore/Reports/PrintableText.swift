// Text from outside (batch and host names, file names, puzzles, error messages that quote
// them) made safe to print: a control character in a report would move the cursor, recolour
// the terminal or, as a carriage return or line feed, split a table row or a CSV record.

extension String {
    /// This text with every control character (C0, DEL, C1) written as `\u{1B}`; unchanged,
    /// without a copy, when it has none.
    public var printable: String {
        guard unicodeScalars.contains(where: \.isControlCharacter) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar.isControlCharacter {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension StringProtocol {
    /// At most `limit` Unicode scalars of this text, printable (`printable`): what an error
    /// quotes from its input, so that a bad 1 MB line is shown as a glimpse of it, never echoed
    /// whole. Scalars, not Characters: one Character can be "e" and a megabyte of accents.
    public func excerpt(_ limit: Int = 80) -> String {
        let head = unicodeScalars.prefix(limit + 1)
        guard head.count > limit else { return String(self).printable }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: head.dropLast())
        return String(kept).printable + "... (\(utf8.count) bytes in all)"
    }
}

extension Unicode.Scalar {
    /// C0 controls (tab, line feed and carriage return among them), DEL and C1 controls, and
    /// the bidirectional overrides and isolates (U+202A-202E, U+2066-2069): those print nothing
    /// but reverse what follows, so a name could show a terminal or a page another text than
    /// the one stored (CVE-2021-42574's trick).
    public var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
