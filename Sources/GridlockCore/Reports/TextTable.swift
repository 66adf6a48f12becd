// Tables as aligned text (first column left, numbers right) and as Markdown. Cells are printed
// with their control characters escaped (PrintableText.swift), and a Markdown cell's "|" too,
// so no name can break a row.

public enum TextTable {
    public static func aligned(header: [String], rows: [[String]]) -> String {
        let all = ([header] + rows).map { $0.map(\.printable) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == 0 ? cell.rightPadded(to: widths[column]) : cell.leftPadded(to: widths[column])
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    public static func markdown(header: [String], rows: [[String]]) -> String {
        let line = { (cells: [String]) in
            "| " + cells.map { $0.printable.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        let rule = "|" + header.indices.map { $0 == 0 ? "---|" : "---:|" }.joined()
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
