// One vocabulary across commands: the worker count is --workers everywhere (old names still
// taken, not shown), and a subcommand's usage error shows that subcommand's usage.

import Testing

@Suite("A consistent command line")
struct ConsistentCLITests {
    @Test("worker takes --workers; its old name --processes still works but is not offered in --help")
    func workersEverywhere() throws {
        let help = try GridlockBinary.run(["worker", "--help"])
        #expect(help.stdout.contains("--workers <workers>") && !help.stdout.contains("--processes"), "\(help.stdout)")
        for name in ["--workers", "--processes"] {
            let zero = try GridlockBinary.run(["worker", "--coordinator", "ipc:///x/a", "--sink", "ipc:///x/b", name, "0", "--insecure"])
            #expect(zero.status == 64 && zero.stderr.contains("--workers and --window must be at least 1"), "\(name): \(zero.stderr)")
        }
        let both = try GridlockBinary.run(["worker", "--coordinator", "ipc:///x/a", "--sink", "ipc:///x/b", "--workers", "2", "--processes", "2", "--insecure"])
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
    }

    @Test("a usage error found while a subcommand runs shows that subcommand's usage, not the list of subcommands")
    func subcommandUsage() throws {
        let output = try GridlockBinary.run(["sink", "--coordinator", "ipc:///x/a", "--metrics", "nowhere", "--insecure"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("Usage: gridlock sink") && !output.stderr.contains("gridlock <subcommand>"), "\(output.stderr)")
    }

    @Test("shell completion offers every solver name and every kind, and files where files go")
    func completion() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try GridlockBinary.run(["--generate-completion-script", shell])
            #expect(script.status == 0 && script.stdout.contains("compare"), "\(shell)")
        }
        // bash's script holds no help text: a solver name in it is there to be offered.
        let bash = try GridlockBinary.run(["--generate-completion-script", "bash"]).stdout
        let offered = bash.split(separator: "\n").first { $0.contains("__gridlock_add_completions -W") && $0.contains("idastar-pdb") }
        let words = try #require(offered, "a line offering the solvers")
        for solver in ["analyze", "bfs", "bidirectional", "reference", "bands", "bitset", "norvig", "astar", "idastar", "idastar-md", "idastar-pdb"] {
            #expect(words.contains("'\(solver)'"), "\(solver)")
        }
        #expect(bash.contains("'rushhour'") && bash.contains("'tilt'"), "the kinds are offered")
    }
}
