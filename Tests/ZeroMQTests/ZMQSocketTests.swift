// The wrapper against real libzmq sockets on inproc and loopback TCP endpoints.

import Foundation
import Testing
import ZeroMQ

@Suite("ZeroMQ wrapper")
struct ZMQSocketTests {
    @Test("a multipart message crosses PUSH to PULL intact, empty frames included")
    func pushPull() throws {
        let context = try ZMQContext()
        let pull = try ZMQSocket(context, .pull)
        let push = try ZMQSocket(context, .push)
        try pull.bind("inproc://push-pull")
        try push.connect("inproc://push-pull")
        let frames: [[UInt8]] = [[1, 2, 3], [], Array("gridlock".utf8), [UInt8](repeating: 7, count: 100_000)]
        #expect(try push.send(frames))
        #expect(try ZMQPoller.readable([pull], timeout: .seconds(2)) == [true])
        #expect(try pull.receive() == frames)
        #expect(try pull.receive() == nil)
        push.close()
        pull.close()
        context.terminate()
    }

    @Test("a ROUTER sees each DEALER's routing id and answers to it alone, over TCP")
    func routerDealer() throws {
        let context = try ZMQContext()
        let router = try ZMQSocket(context, .router)
        try router.set(.routerMandatory(true))
        try router.set(.lingerMilliseconds(0))
        try router.bind("tcp://127.0.0.1:*")
        let endpoint = router.lastEndpoint
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        var dealers: [ZMQSocket] = []
        for name in ["alpha", "beta"] {
            let dealer = try ZMQSocket(context, .dealer)
            try dealer.set(.routingID(Array(name.utf8)))
            try dealer.set(.lingerMilliseconds(0))
            try dealer.connect(endpoint)
            try dealer.send([Array("hello from \(name)".utf8)])
            dealers.append(dealer)
        }
        var seen: [String: String] = [:]
        while seen.count < 2 {
            guard try ZMQPoller.readable([router], timeout: .seconds(5)) == [true], let message = try router.receive() else {
                Issue.record("no message within 5 s")
                break
            }
            seen[String(decoding: message[0], as: UTF8.self)] = String(decoding: message[1], as: UTF8.self)
        }
        #expect(seen == ["alpha": "hello from alpha", "beta": "hello from beta"])
        try router.send([Array("beta".utf8), Array("just you".utf8)])
        #expect(try ZMQPoller.readable([dealers[1]], timeout: .seconds(5)) == [true])
        #expect(try dealers[1].receive() == [Array("just you".utf8)])
        #expect(try dealers[0].receive() == nil)
        #expect {
            try router.send([Array("nobody".utf8), [1]])
        } throws: { error in
            (error as? ZMQError)?.isUnroutable == true
        }
        for dealer in dealers { dealer.close() }
        router.close()
        context.terminate()
    }

    @Test("poll waits for its timeout when nothing arrives")
    func pollTimeout() throws {
        let context = try ZMQContext()
        let pull = try ZMQSocket(context, .pull)
        try pull.bind("inproc://quiet")
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try ZMQPoller.readable([pull], timeout: .milliseconds(50)) == [false])
        #expect(start.duration(to: clock.now) >= .milliseconds(45))
        pull.close()
        context.terminate()
    }

    @Test("poll reports a plain descriptor beside the sockets, in order")
    func pollDescriptor() throws {
        let context = try ZMQContext()
        let pull = try ZMQSocket(context, .pull)
        try pull.bind("inproc://beside-a-pipe")
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(try ZMQPoller.readable([pull], descriptors: [ends[0]], timeout: .milliseconds(10)) == [false, false])
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try ZMQPoller.readable([pull], descriptors: [ends[0]], timeout: .seconds(5)) == [false, true])
        close(ends[0])
        close(ends[1])
        pull.close()
        context.terminate()
    }

    @Test("errors are typed and name the operation and endpoint")
    func typedErrors() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .pull)
        #expect {
            try socket.bind("nonsense://nowhere")
        } throws: { error in
            let error = error as? ZMQError
            return error?.operation == "bind" && error?.endpoint == "nonsense://nowhere"
                && error?.description.contains("nonsense://nowhere") == true
        }
        let first = try ZMQSocket(context, .pull)
        try first.bind("tcp://127.0.0.1:*")
        let taken = first.lastEndpoint
        #expect(throws: ZMQError.self) { try socket.bind(taken) }
        first.close()
        socket.close()
        context.terminate()
    }

    @Test("a full queue makes a non-blocking send return false instead of blocking")
    func wouldBlock() throws {
        let context = try ZMQContext()
        let push = try ZMQSocket(context, .push)
        try push.set(.lingerMilliseconds(0))
        // No peer has connected, so nothing can be queued.
        try push.bind("inproc://nobody-listens")
        #expect(try push.send([[1]], dontWait: true) == false)
        push.close()
        context.terminate()
    }

    @Test("libzmq is 4.x")
    func version() {
        #expect(ZMQContext.version.hasPrefix("4."))
    }
}
