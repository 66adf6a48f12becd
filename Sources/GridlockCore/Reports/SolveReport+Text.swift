// The human form of a solve report:
//
//   fixtures.txt:2 unblockme-I-4 · bfs: solved in 23 moves (as expected) in 18.5 ms
//     D up 1, E down 1, A left 1, B down 2, ...
//     examined 521,748 · enqueued 40,875 · max queue 9,012 · states 40,876 · memory 572 KiB

extension SolveReport {
    public func text(levels: Bool = false) -> String {
        var lines = [headline]
        if let moves = solution?.moves, !moves.isEmpty {
            lines.append("  " + moves.joined(separator: ", "))
        }
        if status == "failed" { return lines.joined(separator: "\n") }
        if outside == true {
            if let stats { lines.append("  memory \(stats.memoryBytes.bytes) (the solver's processes at their peak)") }
            return lines.joined(separator: "\n")
        }
        if let stats, let nodes = stats.searchNodes {
            lines.append("  search nodes \(nodes.grouped) · guesses \((stats.guesses ?? 0).grouped) · propagation steps \((stats.propagations ?? 0).grouped) · memory \(stats.memoryBytes.bytes)")
        } else if let stats {
            lines.append("  examined \(stats.examined.grouped) · enqueued \(stats.enqueued.grouped) · max queue \(stats.maxQueue.grouped) · final queue \(stats.finalQueue.grouped) · states \(stats.statesStored.grouped) · memory \(stats.memoryBytes.bytes)")
            if levels {
                lines.append("  level   examined   enqueued")
                for (level, examined) in stats.examinedPerLevel.enumerated() {
                    let enqueued = level < stats.enqueuedPerLevel.count ? stats.enqueuedPerLevel[level] : 0
                    lines.append("  " + [String(level), examined.grouped, enqueued.grouped]
                        .enumerated().map { $1.leftPadded(to: $0 == 0 ? 5 : 11) }.joined())
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private var headline: String {
        var name = source.map { "\($0.file):\($0.line)" } ?? "puzzle"
        if let label { name += " \(label)" }
        if let solver { name += " · \(solver)\(solvedBy.map { " (ran \($0))" } ?? "")" }
        let time = stats.map { " in \($0.seconds.milliseconds)" } ?? ""
        switch status {
        case "solved" where solution?.position != nil:
            let count = solutions.map { $0 == 1 ? ", the only solution" : ", \($0.grouped) solutions counted" } ?? ""
            return "\(name): solved\(count)\(time)"
        case "solved":
            return "\(name): solved in \((moves ?? 0).counted("move"))\(expectation)\(time)"
        case "unsolvable" where outside == true:
            return "\(name): unsolvable, as it claims\(expectation)\(time)"
        case "cutoff" where outside == true:
            return "\(name): cut off (\(cutoffReason ?? "limit"))\(time)"
        case "unsolvable" where reason != nil:
            return "\(name): unsolvable: \(reason!)\(expectation)"
        case "unsolvable" where stats?.searchNodes != nil:
            return "\(name): no solution (the search was exhausted)\(time)"
        case "unsolvable":
            let level = stats?.levelReached ?? 0
            let explored = cluster.map { ", whole cluster of \($0.counted("board")) explored" } ?? ""
            return "\(name): unsolvable, halted at level \(level)\(explored)\(expectation)\(time)"
        case "cutoff":
            let work = stats?.searchNodes.map { $0.counted("search node") } ?? "\((stats?.statesStored ?? 0).grouped) states"
            return "\(name): cut off (\(reason ?? cutoffReason ?? "limit")) after \(work)\(time)"
        case "failed":
            // An outside solver's crash, garbled output or wrong answer: its message says which.
            return "\(name): failed: \(error?.message ?? "no answer")\(time)"
        default:
            let place = error.flatMap { error in error.line.map { line in error.column.map { "line \(line), column \($0): " } ?? "line \(line): " } } ?? ""
            return "\(name): invalid: \(place)\(error?.message ?? "unreadable")"
        }
    }

    private var expectation: String {
        guard let matchesExpected else { return "" }
        if matchesExpected { return " (as expected)" }
        return " (WRONG: \(disagreement ?? "it disagrees with the input's expected answer"))"
    }
}

extension Int {
    /// 1234567 as "1,234,567".
    public var grouped: String {
        // Most counts a text report shows are under a thousand: no grouping, no Characters.
        if self > -1000 && self < 1000 { return String(self) }
        let digits = String(magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }

    /// "1 move", "23 moves".
    public func counted(_ noun: String) -> String {
        "\(grouped) \(noun)\(self == 1 ? "" : "s")"
    }

    /// A byte count with a binary unit: "572 KiB".
    public var bytes: String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(self)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(self) B" : "\(value.formatted(decimals: value < 10 ? 1 : 0)) \(units[unit])"
    }
}

extension Double {
    /// Seconds as a readable duration: "850 µs", "18.5 ms", "2.31 s".
    public var milliseconds: String {
        if self < 0.001 { return "\((self * 1e6).formatted(decimals: 0)) µs" }
        if self < 1 { return "\((self * 1e3).formatted(decimals: self < 0.01 ? 2 : 1)) ms" }
        return "\(formatted(decimals: 2)) s"
    }

    /// Fixed decimals without Foundation's locale-dependent formatters.
    /// Values too large for whole digits in an Int (a ratio or rate from another program's
    /// rows) are written as Swift prints them, never converted with a trap.
    public func formatted(decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        guard isFinite, abs(self) * scale < 9e15 else { return "\(self)" }
        let scaled = (abs(self) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = self < 0 && scaled > 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fractionText.count) + fractionText
    }
}

extension String {
    public func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    public func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
