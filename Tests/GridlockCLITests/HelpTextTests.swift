// Every command's --help reads well at 80 columns: the usage line fits, the discussion's
// examples and lists (which the argument parser cannot re-wrap without losing their
// indentation) fit, and no option states its default twice.

import Testing

@Suite("Help at 80 columns")
struct HelpTextTests {
    /// Every command, nested ones included.
    static let commands: [[String]] = [
        [], ["solve"], ["render"], ["batch"], ["bench"], ["report"], ["export"], ["analyze"],
        ["collection"], ["collection", "add"], ["collection", "list"], ["collection", "export"], ["hint"],
        ["generate"], ["generate", "rushhour"], ["generate", "sudoku"], ["generate", "tiles"], ["generate", "tilt"],
        ["pdb"], ["pdb", "build"], ["pdb", "list"], ["coordinator"], ["worker"], ["sink"], ["key"], ["keys"], ["keys", "generate"], ["compare"], ["rerun"], ["simulate-workers"], ["check"], ["plot"], ["scan"],
    ]

    /// The names a group's help lists under SUBCOMMANDS.
    static func subcommands(of help: String) -> [String] {
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        let list = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        return list.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
            return String(name)
        }
    }

    @Test("the list of commands checked is every command there is")
    func everyCommand() throws {
        let root = try GridlockBinary.run(["--help"], environment: ["COLUMNS": "1000"]).stdout
        #expect(Self.subcommands(of: root).count >= 15, "the root help lists its subcommands")
        for group in Self.commands where group.count <= 1 {
            let help = try GridlockBinary.run(group + ["--help"], environment: ["COLUMNS": "1000"]).stdout
            for name in Self.subcommands(of: help) where name != "help" {
                #expect(Self.commands.contains(group + [name]), "gridlock \((group + [name]).joined(separator: " ")) is not checked")
            }
        }
    }

    @Test("usage lines and the discussion's indented lines fit 80 columns; at 80, nothing is wider")
    func fits() throws {
        for command in Self.commands {
            let name = (["gridlock"] + command).joined(separator: " ")
            let wide = try GridlockBinary.run(command + ["--help"], environment: ["COLUMNS": "1000"])
            #expect(wide.status == 0, "\(name)")
            let lines = wide.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            for line in lines where line.hasPrefix("USAGE:") {
                #expect(line.count <= 80, "\(name): \(line)")
            }
            // Before the argument and option lists: the overview and the discussion. Prose there
            // is one line a paragraph, which the parser wraps; indented lines it cannot.
            for line in lines.prefix(while: { !$0.hasPrefix("USAGE:") && !$0.hasPrefix("ARGUMENTS:") && !$0.hasPrefix("OPTIONS:") }) {
                if line.hasPrefix(" ") { #expect(line.count <= 80, "\(name): \(line.count) columns: \(line)") }
                // Only a shell example continues with a backslash: in prose it is a line break
                // that the source meant to join (a doubled backslash in the literal).
                if !line.hasPrefix(" ") { #expect(!line.hasSuffix("\\"), "\(name): a literal backslash ends: \(line)") }
            }
            let narrow = try GridlockBinary.run(command + ["--help"], environment: ["COLUMNS": "80"])
            for line in narrow.stdout.split(separator: "\n") {
                #expect(line.count <= 80, "\(name) at 80 columns: \(line)")
            }
        }
    }

    @Test("no option shows its default twice")
    func defaultsOnce() throws {
        for command in Self.commands {
            let help = try GridlockBinary.run(command + ["--help"], environment: ["COLUMNS": "1000"]).stdout
            guard let options = help.range(of: "OPTIONS:\n") else { continue }
            for line in help[options.upperBound...].split(separator: "\n") {
                let defaults = line.components(separatedBy: "default").count - 1
                #expect(defaults <= 1, "gridlock \(command.joined(separator: " ")): \(line)")
            }
        }
    }
}
