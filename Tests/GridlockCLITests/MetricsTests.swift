// The roles' metrics endpoint: scraped during a real batch, checked against the Prometheus text
// format, and the health answers.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GridlockCluster
import GridlockObservability
import Testing

@Suite("Metrics and health")
struct MetricsTests {
    /// GET `url`: the status and the body, or nil when nothing answers.
    static func get(_ url: String) -> (Int, String)? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: (Int, String)?
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 2
        URLSession.shared.dataTask(with: request) { data, response, _ in
            if let response = response as? HTTPURLResponse {
                answer = (response.statusCode, String(decoding: data ?? Data(), as: UTF8.self))
            }
            done.signal()
        }.resume()
        done.wait()
        return answer
    }

    /// The sample of `name` (no labels), or nil.
    static func value(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    /// The address a role printed for its metrics ("metrics on http://HOST:PORT/metrics").
    static func address(in log: URL, seconds: Double = 20) throws -> String {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "metrics on http://"), let end = text[range.upperBound...].firstIndex(of: "/") {
                return String(text[range.upperBound..<end])
            }
            usleep(20_000)
        }
        throw GridlockBinary.Timeout()
    }

    @Test("/metrics scraped during a batch: counters rise, the sink's stored ends at the job count, and every scrape is valid Prometheus text")
    func scrapedDuringABatch() throws {
        let cluster = try ClusterHarness()
        let lines = try ClusterHarness.sample(count: 3_000)
        let sinkLog = cluster.directory.appendingPathComponent("sink.log")
        let coordinatorLog = cluster.directory.appendingPathComponent("coordinator.log")
        try cluster.startSink(extra: ["--metrics", "127.0.0.1:0"], errorLog: sinkLog)
        let sinkAddress = try Self.address(in: sinkLog)
        #expect(Self.get("http://\(sinkAddress)/healthz")?.0 == 200)
        try cluster.startCoordinator(try cluster.write(lines), extra: ["--metrics", "127.0.0.1:0"], errorLog: coordinatorLog)
        let coordinatorAddress = try Self.address(in: coordinatorLog)
        let workerLog = cluster.directory.appendingPathComponent("worker.log")
        // At least 1 ms a job: scrapes must see the batch mid-way, in a release build too.
        try cluster.startWorkers(1, extra: ["--metrics", "127.0.0.1:0"], environment: try ClusterHarness.faults("pace:1"), errorLog: workerLog)
        let workerAddress = try Self.address(in: workerLog)
        var solvedByWorker: [Double] = []
        var stored: [Double] = []
        var read: [Double] = []
        var sawWorker = false
        while cluster.coordinator!.isRunning {
            if let (status, text) = Self.get("http://\(sinkAddress)/metrics") {
                #expect(status == 200)
                #expect(PrometheusText.problems(text).isEmpty, "\(PrometheusText.problems(text))")
                stored.append(Self.value("gridlock_results_stored_total", in: text) ?? -1)
            }
            if let (status, text) = Self.get("http://\(coordinatorAddress)/metrics"), status == 200 {
                #expect(PrometheusText.problems(text).isEmpty, "\(PrometheusText.problems(text))")
                read.append(Self.value("gridlock_jobs_read_total", in: text) ?? -1)
                if (Self.value("gridlock_workers_connected", in: text) ?? 0) >= 1 { sawWorker = true }
            }
            if let (_, text) = Self.get("http://\(workerAddress)/metrics") {
                solvedByWorker.append(Self.value("gridlock_worker_jobs_solved_total", in: text) ?? -1)
            }
            usleep(100_000)
        }
        // The sink outlives the coordinator: its count is final once the batch is over.
        // The sink reports its counts twice a second from its loop: the last ones may come up to
        // half a second after the coordinator has left.
        var final = Self.get("http://\(sinkAddress)/metrics")
        let settled = Date(timeIntervalSinceNow: 10)
        while final.flatMap({ Self.value("gridlock_results_stored_total", in: $0.1) }) != Double(lines.count), Date() < settled {
            usleep(100_000)
            final = Self.get("http://\(sinkAddress)/metrics")
        }
        #expect(final.flatMap { Self.value("gridlock_results_stored_total", in: $0.1) } == Double(lines.count))
        #expect(final.map { $0.1.contains("gridlock_store_batch_seconds_count") } == true)
        try cluster.finish()
        #expect(zip(stored, stored.dropFirst()).allSatisfy { $0 <= $1 }, "a counter never falls: \(stored)")
        // Seen mid-batch at least once (the sink reports twice a second, and a quick batch
        // may give one scrape between its first result and its last), then at the end.
        #expect(stored.contains { $0 > 0 && $0 < Double(lines.count) }, "seen rising mid-batch: \(stored)")
        #expect(zip(read, read.dropFirst()).allSatisfy { $0 <= $1 } && read.contains { $0 > 0 }, "\(read)")
        #expect(sawWorker)
        #expect(solvedByWorker.contains { $0 > 0 } && zip(solvedByWorker, solvedByWorker.dropFirst()).allSatisfy { $0 <= $1 }, "\(solvedByWorker)")
        try cluster.expectAllStored(lines)
    }

    @Test("a role whose loop stops turning fails /healthz; one not bound yet, or stopping, is not ready")
    func healthRules() {
        let start = ContinuousClock.now
        let health = RoleHealth(now: start)
        #expect(health.livenessProblem(now: start) == nil)
        #expect(health.readinessProblem(now: start) == "not bound yet")
        health.markBound()
        #expect(health.readinessProblem(now: start) == nil)
        let later = start.advanced(by: RoleHealth.stallLimit + .seconds(1))
        #expect(health.livenessProblem(now: later)?.contains("has not turned") == true)
        #expect(health.readinessProblem(now: later) != nil)
        health.turned(now: later)
        #expect(health.livenessProblem(now: later) == nil)
        health.markStopping()
        #expect(health.readinessProblem(now: later) == "stopping")
    }

    @Test("snapshots become counters that only rise, and every rejection reason is its own series")
    func countersFromSnapshots() {
        let metrics = RoleMetrics(role: .coordinator, health: RoleHealth())
        var progress = CoordinatorProgress()
        progress.read = 10
        progress.dropped.forged = 2
        metrics.update(progress)
        progress.read = 25
        metrics.update(progress)
        // A restarted count (a snapshot lower than the last) adds nothing, and takes nothing away.
        progress.read = 5
        metrics.update(progress)
        let text = metrics.text()
        #expect(MetricsTests.value("gridlock_jobs_read_total", in: text) == 25)
        #expect(text.contains("gridlock_coordinator_frames_rejected_total{reason=\"forged\"} 2"))
        #expect(text.contains("gridlock_coordinator_frames_rejected_total{reason=\"malformed\"} 0"))
        // Each role shows its own families only.
        #expect(!text.contains("gridlock_results_stored_total") && !text.contains("gridlock_worker_jobs_solved_total"))
        #expect(!RoleMetrics(role: .worker, health: RoleHealth()).text().contains("gridlock_jobs_read_total"))
        #expect(PrometheusText.problems(text).isEmpty, "\(PrometheusText.problems(text))")
        // The checker itself finds what is wrong.
        for bad in ["x_total 1\n", "# TYPE a counter\na{b=c} 1\n", "# TYPE a gauge\na one\n", "# TYPE a counter\na 1", "# TYPE 9a counter\n",
                    "# TYPE h histogram\nh_bucket 1\n"] {
            #expect(!PrometheusText.problems(bad).isEmpty, "\(bad)")
        }
    }

    @Test("--metrics takes HOST:PORT, [IPv6]:PORT or :PORT, and refuses the rest with an example")
    func addresses() throws {
        #expect(try MetricsAddress("127.0.0.1:9100").host == .v4("127.0.0.1"))
        #expect(try MetricsAddress("localhost:9100").host == .v4("127.0.0.1"))
        #expect(try MetricsAddress("[::1]:9100").host == .v6("::1"))
        #expect(try MetricsAddress(":9100").host == nil)
        for bad in ["9100", "host:9100", "127.0.0.1:99999", "127.0.0.1:", "[]:9100", "1.2.3:4", ""] {
            #expect(throws: MetricsAddress.Problem.self, "\(bad)") { try MetricsAddress(bad) }
        }
        let refused = try GridlockBinary.run(["sink", "--coordinator", "ipc:///nonexistent/x", "--metrics", "nowhere", "--insecure"])
        #expect(refused.status == 64 && refused.stderr.contains("e.g. 127.0.0.1:9100"), "\(refused.stderr)")
        let pool = try GridlockBinary.run(["worker", "--coordinator", "ipc:///x/a", "--sink", "ipc:///x/b", "--processes", "2", "--metrics", ":9", "--insecure"])
        #expect(pool.status == 64 && pool.stderr.contains("serves one process"), "\(pool.stderr)")
    }
}

/// The Prometheus text exposition format (version 0.0.4), line by line: comments, TYPE before
/// a metric's samples, names and labels as the format spells them, values as numbers.
enum PrometheusText {
    nonisolated(unsafe) static let name = #/[a-zA-Z_:][a-zA-Z0-9_:]*/#
    nonisolated(unsafe) static let sample = #/([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*")*,?)?\})? (\S+)( -?[0-9]+)?/#

    static func problems(_ text: String) -> [String] {
        var problems: [String] = []
        var types: [String: String] = [:]
        guard text.hasSuffix("\n") else { return ["the text does not end with a newline"] }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let number = index + 1
            if line.hasPrefix("#") {
                let words = line.split(separator: " ", maxSplits: 3)
                if words.count >= 3, words[1] == "TYPE" {
                    guard words.count == 4, (try? Self.name.wholeMatch(in: words[2])) != nil,
                          ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3]) else {
                        problems.append("line \(number): bad TYPE line: \(line)")
                        continue
                    }
                    if types[String(words[2])] != nil { problems.append("line \(number): a second TYPE for \(words[2])") }
                    types[String(words[2])] = String(words[3])
                } else if words.count >= 3, words[1] == "HELP" {
                    if (try? Self.name.wholeMatch(in: words[2])) == nil { problems.append("line \(number): bad HELP name") }
                }
                continue
            }
            if line.isEmpty { continue }
            guard let match = try? Self.sample.wholeMatch(in: line) else {
                problems.append("line \(number): not a sample: \(line)")
                continue
            }
            let metric = String(match.output.1)
            let value = String(match.output.7)
            if Double(value) == nil, !["+Inf", "-Inf", "NaN"].contains(value) { problems.append("line \(number): value \(value)") }
            let family = types[metric] != nil ? metric
                : ["_bucket", "_sum", "_count"].compactMap { suffix in metric.hasSuffix(suffix) ? String(metric.dropLast(suffix.count)) : nil }
                    .first { types[$0] == "histogram" || types[$0] == "summary" }
            guard let family, let type = types[family] else {
                problems.append("line \(number): \(metric) has no TYPE before it")
                continue
            }
            if type == "counter", let number = Double(value), number < 0 { problems.append("line \(number): a negative counter") }
            if type == "histogram", metric.hasSuffix("_bucket"), !line.contains("le=\"") { problems.append("line \(number): a bucket without le") }
        }
        return problems
    }
}

/// The metrics endpoint against clients that misbehave, in process.
@Suite("Metrics endpoint under hostile clients")
struct MetricsEndpointTests {
    /// A TCP connection to 127.0.0.1:`port`, with a receive timeout.
    static func connect(_ port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(result == 0, "connect: \(String(cString: strerror(errno)))")
        var timeout = timeval(tv_sec: 6, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// Sends `request` and reads until the server closes; the answer's first line.
    static func ask(_ port: UInt16, _ request: [UInt8]) throws -> String {
        let descriptor = try connect(port)
        defer { close(descriptor) }
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer.prefix { $0 != 0x0D }, as: UTF8.self)
    }

    @Test("idle, slow, huge and many clients: each is cut off or refused, and a probe is still answered at once")
    func hostileClients() throws {
        let health = RoleHealth()
        let server = try MetricsServer(address: try MetricsAddress("127.0.0.1:0"), metrics: RoleMetrics(role: .sink, health: health), health: health)
        defer { server.stop() }
        let port = try #require(UInt16(server.address.split(separator: ":").last!))
        let probe = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(try Self.ask(port, probe) == "HTTP/1.1 200 OK")
        #expect(try Self.ask(port, Array("POST /metrics HTTP/1.1\r\n\r\n".utf8)) == "HTTP/1.1 405 Method Not Allowed")
        #expect(try Self.ask(port, Array("GET /nothing HTTP/1.1\r\n\r\n".utf8)) == "HTTP/1.1 404 Not Found")
        #expect(try Self.ask(port, Array("hello\r\n\r\n".utf8)) == "HTTP/1.1 400 Bad Request")
        // A head over 8 KiB is refused, not parsed.
        let huge = Array("GET /metrics HTTP/1.1\r\nX: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 20_000) + Array("\r\n\r\n".utf8)
        #expect(try Self.ask(port, huge) == "HTTP/1.1 431 Request Header Fields Too Large")
        // A client that sends nothing is closed within the deadline.
        let idle = try Self.connect(port)
        let started = ContinuousClock.now
        var byte: UInt8 = 0
        #expect(recv(idle, &byte, 1, 0) == 0, "closed by the server, not timed out here")
        #expect(started.duration(to: .now) < .seconds(4))
        close(idle)
        // Far more idle connections than it serves at once: a probe still gets its answer at once.
        let crowd = try (0..<(MetricsServer.maximumConnections * 4)).map { _ in try Self.connect(port) }
        defer { for descriptor in crowd { close(descriptor) } }
        let probeStarted = ContinuousClock.now
        #expect(try Self.ask(port, probe) == "HTTP/1.1 200 OK")
        #expect(probeStarted.duration(to: .now) < .seconds(1), "\(probeStarted.duration(to: .now))")
    }
}
