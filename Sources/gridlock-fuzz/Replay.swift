// Without libFuzzer: `gridlock-fuzz --seeds DIR` writes the seed corpus; `gridlock-fuzz FILE...`
// runs saved inputs (crashes found, kept as regressions) through the same target.

#if !FUZZING
import Foundation

@main
struct Replay {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "--parser-seeds", let directory = arguments.dropFirst().first {
            // The puzzle and config files named after the directory.
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let files = try arguments.dropFirst(2).map { ($0, try String(contentsOfFile: $0, encoding: .utf8)) }
            let seeds = ParserTarget.seeds(files: files)
            for (index, seed) in seeds.enumerated() {
                try Data(seed).write(to: URL(fileURLWithPath: "\(directory)/seed-\(index)"))
            }
            print("gridlock-fuzz: \(seeds.count) parser seeds in \(directory)")
            return
        }
        if arguments.first == "--option-seeds", let directory = arguments.dropFirst().first {
            try write(OptionsTarget.seedInputs, to: directory)
            return
        }
        if arguments.first == "--database-seeds", let directory = arguments.dropFirst().first {
            // No edit, one of each kind of edit, and the file whole.
            let edits: [[UInt8]] = [[], [0, 3, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8], [1, 1, 0, 4, 5, 0xFF, 0xFE, 0x80, 0x41, 0x42], [8, 1, 1, 2, 5],
                                    [12, 0, 0], [16, 2, 0], [16, 0, 3], [20, 0, 0, 0, 0, 0, 0, 0, 0, 9]]
            let templates = DatabaseTarget.templates.indices.flatMap { template in edits.map { [UInt8(template)] + $0 } }
            try write(templates + DatabaseTarget.templates.map { [DatabaseTarget.rawFile] + $0 }, to: directory)
            return
        }
        if arguments.first == "--seeds", let directory = arguments.dropFirst().first {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (index, seed) in FuzzTarget.seeds.enumerated() {
                try Data(seed).write(to: URL(fileURLWithPath: "\(directory)/seed-\(index)"))
            }
            print("gridlock-fuzz: \(FuzzTarget.seeds.count) seeds in \(directory)")
            return
        }
        var count = 0
        while let path = arguments.popFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            let files = isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: path).map { "\(path)/\($0)" } : [path]
            for file in files {
                FuzzTargetChoice(fileName: URL(fileURLWithPath: file).lastPathComponent)
                    .run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                count += 1
            }
        }
        // On standard error: the database target sends standard output to /dev/null.
        FileHandle.standardError.write(Data("gridlock-fuzz: \(count) inputs replayed, none crashed\n".utf8))
    }

    static func write(_ seeds: [[UInt8]], to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (index, seed) in seeds.enumerated() {
            try Data(seed).write(to: URL(fileURLWithPath: "\(directory)/seed-\(index)"))
        }
        FileHandle.standardError.write(Data("gridlock-fuzz: \(seeds.count) seeds in \(directory)\n".utf8))
    }
}
#endif
