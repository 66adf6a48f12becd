// The HTTP endpoint of `--metrics ADDRESS`: GET /metrics (Prometheus text format), /healthz and
// /readyz (200, or 503 with the reason). A small HTTP/1.1 responder on a thread of its own, with
// poll(2), written for what a probe or a scraper sends and for what a hostile client might:
//   - at most `maximumConnections` at once; a new one closes the oldest that has not yet sent
//     its whole request;
//   - a request (line and headers) of at most 8 KiB, read within 2 s of the connection, and
//     the answer written within the same 2 s: a client that sends nothing, or too slowly, or
//     never reads, is closed, and never holds a connection for longer;
//   - one request a connection (Connection: close);
//   - an accept that fails (out of file descriptors) pauses accepting for a moment and is said
//     once; it never ends the server, so a probe answers again once descriptors are free.
// The role's socket loops run on their own threads; this one only reads what they report.

import Foundation

public final class MetricsServer: @unchecked Sendable {
    public static let maximumConnections = 32
    static let maximumRequestBytes = 8_192
    static let connectionDeadline: Duration = .seconds(2)

    /// The address it listens on, with the port resolved (for `:0`).
    public let address: String
    private let listener: Int32
    private let stopRequested = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    /// The address could not be bound (it is taken, or not this machine's).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts serving `metrics` and `health` at `address`; throws when it cannot be bound.
    /// `log` is told, once each, of trouble accepting connections.
    public init(
        address parsed: MetricsAddress, metrics: RoleMetrics, health: RoleHealth, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        let (descriptor, bound) = try Self.listen(parsed)
        listener = descriptor
        address = bound
        let routes = Routes(metrics: metrics, health: health)
        let thread = Thread { [listener, stopRequested, finished] in
            Self.serve(listener, routes: routes, stop: stopRequested, log: log)
            close(listener)
            finished.signal()
        }
        thread.name = "metrics-http"
        thread.start()
    }

    /// Stops serving and closes every connection; waits for the thread.
    public func stop() {
        let first = stopRequested.update { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { finished.wait() }
    }

    deinit {
        stop()
    }

    // MARK: Listening

    private static func listen(_ parsed: MetricsAddress) throws -> (Int32, String) {
        let family = if case .v4? = parsed.host { AF_INET } else { AF_INET6 }
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "cannot serve metrics on \(parsed.text): socket: \(String(cString: strerror(errno)))") }
        func fail(_ call: String) -> Failure {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return Failure(description: "cannot serve metrics on \(parsed.text): \(call): \(reason)")
        }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var result: Int32
        switch parsed.host {
        case .v4(let host)?:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = parsed.port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw fail("inet_pton") }
            result = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        case let host:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = parsed.port.bigEndian
            if case .v6(let text)? = host {
                guard inet_pton(AF_INET6, text, &address.sin6_addr) == 1 else { throw fail("inet_pton") }
            } else {
                // Every interface, IPv4 too.
                var no: Int32 = 0
                setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &no, socklen_t(MemoryLayout<Int32>.size))
            }
            result = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        }
        guard result == 0 else { throw fail("bind") }
        guard Glibc.listen(descriptor, 64) == 0 else { throw fail("listen") }
        return (descriptor, describe(descriptor))
    }

    /// "host:port" of a bound socket.
    private static func describe(_ descriptor: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        if storage.ss_family == sa_family_t(AF_INET) {
            return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                var raw = address.pointee.sin_addr
                inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                return "\(Self.text(text)):\(UInt16(bigEndian: address.pointee.sin_port))"
            } }
        }
        return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
            var raw = address.pointee.sin6_addr
            inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
            return "[\(Self.text(text))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
        } }
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Serving

    private final class Connection {
        let descriptor: Int32
        let deadline: ContinuousClock.Instant
        var request: [UInt8] = []
        var response: [UInt8]?
        var written = 0

        init(descriptor: Int32, deadline: ContinuousClock.Instant) {
            self.descriptor = descriptor
            self.deadline = deadline
        }
    }

    private static func serve(_ listener: Int32, routes: Routes, stop: Locked<Bool>, log: @Sendable (String) -> Void) {
        let clock = ContinuousClock()
        var connections: [Connection] = []
        var acceptPausedUntil: ContinuousClock.Instant?
        var saidAcceptTrouble = false
        defer { for connection in connections { close(connection.descriptor) } }
        while !stop.update({ $0 }) {
            let now = clock.now
            let accepting = acceptPausedUntil.map { now >= $0 } ?? true
            var items = connections.map { pollfd(fd: $0.descriptor, events: Int16($0.response == nil ? POLLIN : POLLOUT), revents: 0) }
            if accepting { items.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&items, nfds_t(items.count), 100)
            let after = clock.now
            let listenerReadable = accepting && items.last!.revents & Int16(POLLIN) != 0
            let ready = Set(connections.indices.filter { items[$0].revents != 0 }.map { connections[$0].descriptor })
            if listenerReadable {
                for _ in 0..<maximumConnections {
                    // Full: the oldest connection still sending its request makes room. Idle
                    // connections cannot then keep a probe waiting; a probe sends its request at
                    // once and is answered in the same turn.
                    if connections.count >= maximumConnections {
                        guard let oldest = connections.firstIndex(where: { $0.response == nil }) else { break }
                        close(connections[oldest].descriptor)
                        connections.remove(at: oldest)
                    }
                    let client = accept(listener, nil, nil)
                    if client >= 0 {
                        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                        connections.append(Connection(descriptor: client, deadline: after.advanced(by: connectionDeadline)))
                        continue
                    }
                    if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                        acceptPausedUntil = after.advanced(by: .milliseconds(250))
                        if !saidAcceptTrouble {
                            log("metrics: cannot accept a connection (\(String(cString: strerror(errno)))); pausing, and trying again")
                            saidAcceptTrouble = true
                        }
                    }
                    break
                }
            }
            for connection in connections where ready.contains(connection.descriptor) {
                step(connection, routes: routes)
            }
            connections.removeAll { connection in
                let done = connection.response.map { connection.written >= $0.count } ?? false
                if done || after >= connection.deadline || connection.written < 0 {
                    close(connection.descriptor)
                    return true
                }
                return false
            }
        }
    }

    /// Reads what has arrived, answers once the request is whole, writes what the socket takes.
    private static func step(_ connection: Connection, routes: Routes) {
        if connection.response == nil {
            var buffer = [UInt8](repeating: 0, count: 2_048)
            let count = read(connection.descriptor, &buffer, buffer.count)
            if count <= 0 {
                if count == 0 || (errno != EAGAIN && errno != EINTR) { connection.written = -1 }
                return
            }
            connection.request += buffer[0..<count]
            if let end = HTTPRequestHead.end(of: connection.request) {
                connection.response = routes.answer(HTTPRequestHead(connection.request[..<end]))
            } else if connection.request.count > maximumRequestBytes {
                connection.response = HTTPResponse(status: 431, reason: "Request Header Fields Too Large", body: "request over 8 KiB\n").bytes
            } else {
                return
            }
        }
        guard let response = connection.response else { return }
        let count = response[connection.written...].withUnsafeBytes { write(connection.descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            connection.written += count
        } else if errno != EAGAIN && errno != EINTR {
            connection.written = -1
        }
    }
}

/// What the endpoint answers, by method and path.
struct Routes: Sendable {
    let metrics: RoleMetrics
    let health: RoleHealth

    func answer(_ head: HTTPRequestHead) -> [UInt8] {
        guard let method = head.method, let path = head.path else {
            return HTTPResponse(status: 400, reason: "Bad Request", body: "not an HTTP request\n").bytes
        }
        guard method == "GET" || method == "HEAD" else {
            return HTTPResponse(status: 405, reason: "Method Not Allowed", body: "GET or HEAD only\n").bytes
        }
        let response = switch path {
        case "/metrics": HTTPResponse(status: 200, reason: "OK", body: metrics.text(), type: "text/plain; version=0.0.4; charset=utf-8")
        case "/healthz": Self.health(health.livenessProblem())
        case "/readyz": Self.health(health.readinessProblem())
        default: HTTPResponse(status: 404, reason: "Not Found", body: "/metrics, /healthz or /readyz\n")
        }
        return method == "HEAD" ? response.head : response.bytes
    }

    private static func health(_ problem: String?) -> HTTPResponse {
        problem.map { HTTPResponse(status: 503, reason: "Service Unavailable", body: $0 + "\n") }
            ?? HTTPResponse(status: 200, reason: "OK", body: "ok\n")
    }
}

/// The request line of a request whose head has arrived; the headers are not needed.
struct HTTPRequestHead {
    var method: String?
    var path: String?

    /// Where the head ends (after its blank line), or nil while it has not arrived.
    static func end(of bytes: [UInt8]) -> Int? {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0x0A, bytes[index + 1] == 0x0A { return index + 2 }
            if index + 3 < bytes.count, bytes[index] == 0x0D, bytes[index + 1] == 0x0A, bytes[index + 2] == 0x0D, bytes[index + 3] == 0x0A {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    init(_ head: ArraySlice<UInt8>) {
        let line = head.prefix { $0 != 0x0D && $0 != 0x0A }
        let words = line.split(separator: 0x20)
        guard words.count == 3, words[2].starts(with: Array("HTTP/1.".utf8)) else { return }
        method = String(decoding: words[0], as: UTF8.self)
        // The query, if any, is not part of the route.
        path = String(decoding: words[1].prefix { $0 != UInt8(ascii: "?") }, as: UTF8.self)
    }
}

struct HTTPResponse {
    var status: Int
    var reason: String
    var body: String
    var type = "text/plain; charset=utf-8"

    var head: [UInt8] {
        Array("HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n".utf8)
    }

    var bytes: [UInt8] { head + Array(body.utf8) }
}

/// `--metrics`'s address: "host:port" (IPv4 address or `localhost`), "[v6]:port", or ":port"
/// (every interface).
public struct MetricsAddress: Sendable, Hashable {
    public enum Host: Sendable, Hashable {
        case v4(String)
        case v6(String)
    }

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public var host: Host?
    public var port: UInt16
    /// As the user wrote it.
    public var text: String

    public init(_ text: String) throws {
        self.text = text
        let bad = Problem(description: "--metrics \(text): expected HOST:PORT (an IPv4 address or localhost), [IPv6]:PORT or :PORT (every interface), e.g. 127.0.0.1:9100")
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { throw bad }
        self.port = port
        let host = text[..<colon]
        if host.isEmpty {
            self.host = nil
        } else if host.hasPrefix("["), host.hasSuffix("]"), host.count > 2 {
            self.host = .v6(String(host.dropFirst().dropLast()))
        } else if host == "localhost" {
            self.host = .v4("127.0.0.1")
        } else {
            let octets = host.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { throw bad }
            self.host = .v4(String(host))
        }
    }
}

/// A value shared between the server's thread and its owner.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func update<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }
}
