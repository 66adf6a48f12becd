// The second fuzz target: puzzle text and config files, as a careless or hostile user writes
// them. An input is a control byte and text. The control byte picks how the text is read:
//
//   0       a file of puzzles, each record's kind told from its shape (`batch FILE`)
//   1 ... 4 a file of puzzles of one kind (--kind rushhour, sudoku, tiles, tilt)
//   5       a cluster config file (--config)
//
// Every record that parses is solved with small limits (2,000 states, 20,000 Sudoku steps, a
// 4 MiB budget: an input must not make the target slow) and every answer replayed by its
// kind's validator, which must accept it: a parser that accepts what a solver or validator
// chokes on is a crash here. Selected with GRIDLOCK_FUZZ_TARGET=parsers (scripts/fuzz).

import GridlockCluster
import GridlockClusterBase
import GridlockCore

enum ParserTarget {
    static let kinds: [PuzzleKind?] = [nil, .rushhour, .sudoku, .tiles, .tilt]
    static let configByte: UInt8 = 5

    static func run(_ input: [UInt8]) {
        guard let control = input.first else { return }
        let text = String(decoding: input.dropFirst(), as: UTF8.self)
        if control % 6 == configByte {
            _ = try? ClusterConfig.parse(text, file: "fuzz.conf")
            return
        }
        let kind = kinds[Int(control % 6)]
        var splitter = PuzzleKind.recordSplitter(kind: kind)
        var records: [PuzzleRecord] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            splitter.add(line, number: index + 1) { records.append($0) }
        }
        splitter.finish { records.append($0) }
        let options = SolveOptions(maxStates: 2_000, maxSteps: 20_000, memoryBudgetBytes: 4 << 20)
        for record in records {
            guard let puzzle = try? ParsedPuzzle.parse(record, kind: kind) else { continue }
            // Tiles by plain bfs: the default builds pattern databases, seconds of work per process.
            let result = puzzle.solve(with: puzzle.kind == .tiles ? "bfs" : puzzle.kind.defaultSolver, options: options)!
            if let failure = puzzle.validationFailure(of: result) {
                fatalError("\(puzzle.kind) \(record.text): the solver's answer fails validation: \(failure)")
            }
        }
    }

    /// Seeds from puzzle files: each file's first records (at most 2 KiB), under every control
    /// byte that reads puzzles, and the config file whole.
    static func seeds(files: [(name: String, text: String)]) -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for file in files {
            let head = Array(file.text.utf8.prefix(2_048))
            if file.name.hasSuffix(".conf") {
                seeds.append([configByte] + head)
            } else {
                for control in 0..<UInt8(kinds.count) { seeds.append([control] + head) }
            }
        }
        return seeds
    }
}
