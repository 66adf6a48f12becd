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
                let parsers = URL(fileURLWithPath: file).lastPathComponent.hasPrefix("parsers-")
                FuzzTargetChoice.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))), parsers: parsers)
                count += 1
            }
        }
        print("gridlock-fuzz: \(count) inputs replayed, none crashed")
    }
}
#endif
