// A real PostgreSQL server for the tests: Debian's, started in a folder of its own for this
// test process, stopped when it ends. Each test gets a database of its own, since the tests
// run in parallel. Where no server can start (no PostgreSQL installed, no user to run it as),
// the suites say SKIP with the reason and run nothing.
//
// As root (CI), initdb and postgres refuse to run: they run as the `postgres` user, through
// runuser. The socket's folder is under /tmp, short: a Unix socket's path must stay under
// 107 bytes, and scripts/test's temporary folder is long.

#if PostgreSQL
import Foundation
import GridlockCluster

final class PostgresServer: Sendable {
    let directory: String
    let port: Int
    let binaries: String
    /// The password of the `gridlock` user over TCP (scram-sha-256); the socket trusts it.
    static let password = "hunter2-SECRET"

    /// The server of this test process, or nil (and why, printed once) where none can start.
    static let shared: PostgresServer? = {
        if let reason = ProcessInfo.processInfo.environment["GRIDLOCK_PG_SKIP"] {
            print("SKIP: PostgreSQL tests: \(reason)")
            return nil
        }
        do {
            let server = try PostgresServer()
            atexit { PostgresServer.shared?.stop() }
            return server
        } catch {
            print("SKIP: PostgreSQL tests: \(error)")
            return nil
        }
    }()

    private init() throws {
        binaries = try Self.binaries()
        var template = Array("/tmp/gpg.XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw Failure("cannot make a folder under /tmp") }
        directory = String(cString: template)
        if getuid() == 0 {
            // The server's own user must own its folder; root can still reach the socket.
            _ = try Self.run("/usr/bin/chown", ["postgres", directory])
        }
        let passwordFile = directory + "/password"
        try Self.password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
        if getuid() == 0 { _ = try Self.run("/usr/bin/chown", ["postgres", passwordFile]) }
        try Self.asServerUser(binaries + "/initdb", [
            "-D", directory + "/data", "-U", "gridlock", "-A", "trust", "--auth-host=scram-sha-256", "--pwfile=" + passwordFile,
            "-E", "UTF8", "--locale=C.UTF-8", "--no-sync",
        ])
        port = try Self.start(binaries: binaries, directory: directory, ports: (0..<5).map { _ in Int.random(in: 20_000...60_000) })
    }

    /// Starts the server on the first of `ports` it can listen on; returns that port.
    private static func start(binaries: String, directory: String, ports: [Int]) throws -> Int {
        for candidate in ports {
            let options = "-k \(directory) -c listen_addresses=127.0.0.1 -p \(candidate) -c fsync=off -c max_connections=200"
            if (try? asServerUser(binaries + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "30", "-o", options, "start"])) != nil {
                return candidate
            }
        }
        let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
        throw Failure("the server did not start: \(log.suffix(600))")
    }

    /// A server of a test's own, which it may stop and start (`halt`, `restart`).
    static func own() throws -> PostgresServer { try PostgresServer() }

    /// Stops the server at once, as a crash would, keeping its files.
    func halt() throws {
        try Self.asServerUser(binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts it again on its port.
    func restart() throws {
        _ = try Self.start(binaries: binaries, directory: directory, ports: [port])
    }

    func stop() {
        _ = try? Self.asServerUser(binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A new, empty database; its URL through the socket (trusted, no password).
    /// `icu`: sorting text as people read it (en-US: "_z" < "a" < "B"), not by bytes as
    /// SQLite does, so that a query missing gridlock's own order would show.
    func database(icu: Bool = false) throws -> String {
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try psql("CREATE DATABASE \(name)" + (icu ? " LOCALE_PROVIDER icu ICU_LOCALE 'en-US' TEMPLATE template0" : ""))
        return socketURL(name)
    }

    /// The database a URL names.
    static func name(of url: String) -> String {
        (try? PostgresURL(url).database) ?? "?"
    }

    func socketURL(_ database: String, user: String = "gridlock") -> String {
        "postgresql://\(user)@/\(database)?host=\(directory)&port=\(port)"
    }

    func tcpURL(_ database: String, password: String?) -> String {
        "postgresql://gridlock\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Runs SQL through psql, as the gridlock user over the socket, and returns what it printed.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run(binaries + "/psql", ["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", directory, "-p", "\(port)", "-U", "gridlock", "-d", database, "-c", sql])
    }

    private static func binaries() throws -> String {
        if let given = ProcessInfo.processInfo.environment["GRIDLOCK_PG_BIN"] { return given }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last, FileManager.default.isExecutableFile(atPath: "\(root)/\(newest)/bin/initdb") else {
            throw Failure("no PostgreSQL server under \(root) (Debian's postgresql package; scripts/setup --postgres installs it)")
        }
        return "\(root)/\(newest)/bin"
    }

    private static func asServerUser(_ program: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            _ = try run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
        } else {
            _ = try run(program, arguments)
        }
    }

    /// Runs a program and returns what it printed. Not through Foundation's Process, which
    /// learns that its child ended when a socket the child inherited closes: the server that
    /// pg_ctl starts inherits it too and keeps it open, and the wait would never end. Here the
    /// child's output goes to a file and its end is waitpid's.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pg-run-\(UUID().uuidString.prefix(8)).log").path
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure("cannot start \(program): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // Exited normally (the low seven bits 0) with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure("\((program as NSString).lastPathComponent) \(arguments.prefix(3).joined(separator: " ")) failed (wait status \(status)): \(text.suffix(600))")
        }
        return text
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
#endif
