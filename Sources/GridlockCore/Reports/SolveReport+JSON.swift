// `solve --format json`'s line, written member by member (JSONWriter) in the order JSONLine's
// sorted keys give: the same bytes as encoding the report, without a JSONEncoder per puzzle.
// A member added to SolveReport must be added here too, in its sorted place; the tests compare
// the two on reports of every kind and status.

extension SolveReport: JSONWritable {
    /// One line of JSON, keys sorted, no spaces.
    public var jsonLine: String {
        var writer = JSONWriter(capacity: 256 + 16 * (steps?.count ?? 0) + 8 * (stats?.examinedPerLevel.count ?? 0))
        write(to: &writer)
        return writer.text
    }

    public func write(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("cluster", cluster)
            json.member("cutoffReason", cutoffReason)
            json.member("disagreement", disagreement)
            json.member("error", error)
            json.member("expectedCluster", expectedCluster)
            json.member("expectedMoves", expectedMoves)
            json.member("kind", kind)
            json.member("label", label)
            json.member("matchesExpected", matchesExpected)
            json.member("moves", moves)
            json.member("outside", outside)
            json.member("puzzle", puzzle)
            json.member("reason", reason)
            switch solution {
            case .moves(let moves)?:
                json.key("solution")
                json.values(moves)
            case .position(let position)?:
                json.member("solution", position)
            case nil:
                break
            }
            json.member("solutions", solutions)
            json.member("solvedBy", solvedBy)
            json.member("solver", solver)
            json.member("source", source)
            json.member("stats", stats)
            json.member("status", status)
            json.member("steps", steps)
        }
    }
}

extension SolveReport.ErrorInfo: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("code", code)
            json.member("column", column)
            json.member("line", line)
            json.member("message", message)
        }
    }
}

extension SolveReport.Source: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("file", file)
            json.member("line", line)
        }
    }
}

extension SolveReport.Stats: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("bounds", bounds)
            json.member("enqueued", enqueued)
            json.member("enqueuedPerLevel", enqueuedPerLevel)
            json.member("examined", examined)
            json.member("examinedPerLevel", examinedPerLevel)
            json.member("finalQueue", finalQueue)
            json.member("guesses", guesses)
            json.member("levelReached", levelReached)
            json.member("maxQueue", maxQueue)
            json.member("memoryBytes", memoryBytes)
            json.member("propagations", propagations)
            json.member("searchNodes", searchNodes)
            json.key("seconds")
            json.value(seconds)
            json.member("statesStored", statesStored)
        }
    }
}

extension SolutionMove: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("from", from)
            json.member("piece", piece)
            json.member("text", text)
            json.member("to", to)
        }
    }
}

extension BoardCell: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("column", column)
            json.member("row", row)
        }
    }
}
