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
            let zero = try GridlockBinary.run(["worker", "--coordinator", "ipc:///x/a", "--sink", "ipc:///x/b", name, "0"])
            #expect(zero.status == 64 && zero.stderr.contains("--workers and --window must be at least 1"), "\(name): \(zero.stderr)")
        }
        let both = try GridlockBinary.run(["worker", "--coordinator", "ipc:///x/a", "--sink", "ipc:///x/b", "--workers", "2", "--processes", "2"])
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
    }

    @Test("a usage error found while a subcommand runs shows that subcommand's usage, not the list of subcommands")
    func subcommandUsage() throws {
        let output = try GridlockBinary.run(["sink", "--coordinator", "ipc:///x/a", "--metrics", "nowhere"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("Usage: gridlock sink") && !output.stderr.contains("gridlock <subcommand>"), "\(output.stderr)")
    }
}
