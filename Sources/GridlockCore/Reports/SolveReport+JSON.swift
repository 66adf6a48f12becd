// `solve --format json`'s line, written member by member (JSONWriter) in the order JSONLine's
// sorted keys give: the same bytes as encoding the report, without a JSONEncoder per puzzle.
// A member added to SolveReport must be added here too, in its sorted place; the tests compare
// the two on reports of every kind and status.

extension SolveReport {
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
            if let error {
                json.key("error")
                json.object { json in
                    json.member("code", error.code)
                    json.member("column", error.column)
                    json.member("line", error.line)
                    json.member("message", error.message)
                }
            }
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
            if let source {
                json.key("source")
                json.object { json in
                    json.member("file", source.file)
                    json.member("line", source.line)
                }
            }
            if let stats {
                json.key("stats")
                stats.write(to: &json)
            }
            json.member("status", status)
            if let steps {
                json.key("steps")
                json.array { json in
                    for step in steps { step.write(to: &json) }
                }
            }
        }
    }
}

extension SolveReport.Stats {
    func write(to writer: inout JSONWriter) {
        writer.object { json in
            if let bounds {
                json.key("bounds")
                json.values(bounds)
            }
            json.member("enqueued", enqueued)
            json.key("enqueuedPerLevel")
            json.values(enqueuedPerLevel)
            json.member("examined", examined)
            json.key("examinedPerLevel")
            json.values(examinedPerLevel)
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

extension SolutionMove {
    func write(to writer: inout JSONWriter) {
        writer.object { json in
            if let from {
                json.key("from")
                from.write(to: &json)
            }
            json.member("piece", piece)
            json.member("text", text)
            if let to {
                json.key("to")
                to.write(to: &json)
            }
        }
    }
}

extension BoardCell {
    func write(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("column", column)
            json.member("row", row)
        }
    }
}
