// One connection to a PostgreSQL server, used from ordinary threads: the sink's and a
// command's. postgres-nio answers with futures on an event loop of its own; each statement
// is waited for on the calling thread (no Swift concurrency, so no cooperative pool to
// starve), under a deadline, one caller at a time.
//
// Every error names the server by its URL without the password, and says what happened in
// words (the server's own message and SQLSTATE, or what the connection saw): these messages
// reach the coordinator's log as the sink's reason for stopping.

#if PostgreSQL
import Foundation
import GridlockClusterBase
import GridlockCore
import GridlockCluster
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

final class PostgresSession: @unchecked Sendable {
    let url: PostgresURL
    private let group: MultiThreadedEventLoopGroup
    private let connection: PostgresConnection
    private let logger: Logger
    /// One statement at a time: `gridlock batch` stores from its sink thread while the main
    /// thread records the batch. Held across a whole transaction (`transaction`).
    private let lock = NSRecursiveLock()

    init(_ url: PostgresURL) throws {
        self.url = url
        logger = Logger(label: "gridlock.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var configuration: PostgresConnection.Configuration
        if let directory = url.socketDirectory {
            configuration = .init(unixSocketPath: "\(directory)/.s.PGSQL.\(url.port)", username: url.user, password: url.password, database: url.database)
        } else {
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: try Self.tls(url.tls))
        }
        configuration.options.connectTimeout = .milliseconds(Int64(url.connectSeconds * 1000))
        do {
            connection = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 1, logger: logger).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw Self.failure(error, url: url, doing: "cannot connect")
        }
    }

    deinit {
        let closing: EventLoopFuture<Void> = connection.close()
        try? closing.wait()
        try? group.syncShutdownGracefully()
    }

    /// libpq's meaning of each mode: `prefer` and `require` encrypt without checking the
    /// certificate (a default Debian server's is self-signed), `verify-full` checks it.
    private static func tls(_ mode: PostgresURL.TLS) throws -> PostgresConnection.Configuration.TLS {
        var unchecked = TLSConfiguration.makeClientConfiguration()
        unchecked.certificateVerification = .none
        switch mode {
        case .disable: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: unchecked))
        case .require: return .require(try NIOSSLContext(configuration: unchecked))
        case .verifyFull: return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    /// Runs one statement and returns its rows and command tag, or throws what went wrong in
    /// words. Past the URL's timeout the connection is closed: a stopped or unreachable server
    /// ends the wait with an error instead of holding the caller for good.
    @discardableResult
    func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> PostgresQueryResult {
        lock.lock()
        defer { lock.unlock() }
        let loop = connection.eventLoop
        let promise = loop.makePromise(of: PostgresQueryResult.self)
        let connection = connection
        let seconds = url.statementSeconds
        // Both callbacks run on the event loop, so this flag needs no lock: a deadline that
        // fires after the answer came must not close a healthy connection.
        let answered = Answered()
        let deadline = loop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
            guard !answered.value else { return }
            promise.fail(Deadline(seconds: seconds))
            let closing: EventLoopFuture<Void> = connection.close()
            _ = closing
        }
        let logger = logger
        // Asked on the event loop, in the same turn as the query: postgres-nio's query on a
        // connection the server has already closed never completes, so a server that stopped
        // mid-batch would hold the sink until the deadline, statement after statement.
        loop.execute {
            guard !connection.isClosed else {
                answered.value = true
                promise.fail(Closed())
                return
            }
            connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).whenComplete { result in
                answered.value = true
                promise.completeWith(result)
            }
        }
        defer { deadline.cancel() }
        do {
            return try promise.futureResult.wait()
        } catch {
            throw Self.failure(error, url: url, doing: nil)
        }
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    func transaction<Value>(readOnly: Bool = false, _ body: () throws -> Value) throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        try run(readOnly ? "BEGIN READ ONLY" : "BEGIN")
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            // A closed connection has no transaction left to roll back; asking would only
            // wait out another deadline.
            if !connection.isClosed { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    struct Deadline: Error {
        var seconds: Double
    }

    /// The connection was closed before the statement was sent: by the server (it stopped or
    /// restarted) or by an earlier deadline.
    struct Closed: Error {}

    /// Whether a statement's answer came; touched only on the connection's event loop.
    private final class Answered: @unchecked Sendable {
        var value = false
    }

    /// An error in words, naming the server: never the password, never postgres-nio's generic
    /// text (it hides the server's message so as not to leak data; ours holds no secrets).
    static func failure(_ error: any Error, url: PostgresURL, doing: String?) -> ClusterError {
        let prefix = "PostgreSQL \(url)" + (doing.map { ": \($0)" } ?? "")
        if error is Closed {
            return ClusterError("\(prefix): the server closed the connection (did it stop or restart?)")
        }
        if let deadline = error as? Deadline {
            return ClusterError("\(prefix): no answer in \(deadline.seconds.formatted(decimals: 0)) s (is the server stopped or unreachable? ?timeout=SECONDS allows a statement longer)")
        }
        guard let error = error as? PSQLError else { return ClusterError("\(prefix): \(error)") }
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? "?"
            let said = [info[.message], info[.detail]].compactMap { $0 }.joined(separator: ": ")
            return ClusterError("\(prefix): \(Self.meaning(ofState: state) ?? "the server refused it") (SQLSTATE \(state): \(said.printable))")
        }
        switch error.code {
        case .serverClosedConnection, .uncleanShutdown: return ClusterError("\(prefix): the server closed the connection (did it stop or restart?)")
        case .clientClosedConnection: return ClusterError("\(prefix): the connection was closed after an earlier error")
        case .sslUnsupported: return ClusterError("\(prefix): the server does not offer TLS, and sslmode=require asks for it")
        case .authMechanismRequiresPassword: return ClusterError("\(prefix): the server asks for a password: give it in PGPASSWORD")
        case .connectionError:
            let underlying = error.underlying.map { "\($0)" } ?? "no connection"
            return ClusterError("\(prefix): cannot reach the server (\(underlying.printable))")
        default: return ClusterError("\(prefix): \(String(reflecting: error.code))")
        }
    }

    /// What the SQLSTATEs an operator meets most mean, in words that say what to do.
    private static func meaning(ofState state: String) -> String? {
        switch state {
        case "28P01", "28000": "the user or password was refused"
        case "3D000": "no such database (create it with createdb, or name another)"
        case "53100": "the server's disk is full"
        case "42501": "this user may not do that (a reader needs SELECT; a sink needs INSERT, UPDATE, DELETE and CREATE)"
        case "57P01", "57P02", "57P03": "the server is shutting down or starting up"
        case "25006": "the connection is read-only"
        default: nil
        }
    }
}
#endif
