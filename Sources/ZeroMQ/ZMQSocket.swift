// A socket belongs to the thread that uses it (libzmq sockets are not thread-safe), so this
// class is deliberately not Sendable: create it on the socket loop's thread and close it there.
//
// Frames are plain byte arrays. Sends copy the bytes (zmq_send), and receives copy each frame
// out of one zmq_msg_t that lives behind a pointer for the socket's lifetime: a zmq_msg_t in a
// Swift value would be copied by assignment, and two copies double-free.

import CZeroMQ

public final class ZMQSocket {
    let handle: UnsafeMutableRawPointer
    public let type: ZMQSocketType
    private let message: UnsafeMutablePointer<zmq_msg_t>
    private var closed = false

    public init(_ context: ZMQContext, _ type: ZMQSocketType) throws(ZMQError) {
        handle = try check(zmq_socket(context.handle, type.rawValue), "socket")
        self.type = type
        message = .allocate(capacity: 1)
    }

    deinit {
        close()
        message.deallocate()
    }

    /// Closes the socket; pending outgoing messages are kept for the LINGER period.
    public func close() {
        guard !closed else { return }
        closed = true
        _ = try? check(zmq_close(handle), "close")
    }

    public func bind(_ endpoint: String) throws(ZMQError) {
        _ = try check(zmq_bind(handle, endpoint), "bind", endpoint: endpoint)
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        _ = try check(zmq_connect(handle, endpoint), "connect", endpoint: endpoint)
    }

    public func disconnect(_ endpoint: String) throws(ZMQError) {
        _ = try check(zmq_disconnect(handle, endpoint), "disconnect", endpoint: endpoint)
    }

    /// The endpoint the socket last bound, with a wildcard port resolved
    /// (`tcp://127.0.0.1:*` becomes `tcp://127.0.0.1:41234`).
    public var lastEndpoint: String {
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        guard (try? check(zmq_getsockopt(handle, ZMQ_LAST_ENDPOINT, &buffer, &size), "getsockopt ZMQ_LAST_ENDPOINT")) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func set(_ option: ZMQOption) throws(ZMQError) {
        switch option.value {
        case .int(let value):
            var value = value
            _ = try check(zmq_setsockopt(handle, option.code, &value, MemoryLayout<Int32>.size), "setsockopt \(option.name)")
        case .int64(let value):
            var value = value
            _ = try check(zmq_setsockopt(handle, option.code, &value, MemoryLayout<Int64>.size), "setsockopt \(option.name)")
        case .bytes(let bytes):
            try check(bytes.withUnsafeBytes { zmq_setsockopt(handle, option.code, $0.baseAddress, $0.count) }, "setsockopt \(option.name)")
        }
    }

    /// Sends a multipart message. Returns false, sending nothing more, when `dontWait` is set
    /// and the message cannot be queued now (the peer's queue is full, or no peer yet).
    @discardableResult
    public func send(_ frames: [[UInt8]], dontWait: Bool = false) throws(ZMQError) -> Bool {
        precondition(!frames.isEmpty, "a message has at least one frame")
        for (index, frame) in frames.enumerated() {
            var flags: Int32 = index < frames.count - 1 ? ZMQ_SNDMORE : 0
            if dontWait { flags |= ZMQ_DONTWAIT }
            do throws(ZMQError) {
                try check(frame.withUnsafeBytes { zmq_send(handle, $0.baseAddress, $0.count, flags) }, "send")
            } catch where error.isWouldBlock && index == 0 {
                // Only the first frame can fail to queue: later frames of a message always go.
                return false
            }
        }
        return true
    }

    /// Receives one multipart message, or nil when `dontWait` is set and none is waiting.
    public func receive(dontWait: Bool = true) throws(ZMQError) -> [[UInt8]]? {
        var frames: [[UInt8]] = []
        while true {
            try check(zmq_msg_init(message), "msg_init")
            defer { _ = try? check(zmq_msg_close(message), "msg_close") }
            let flags: Int32 = dontWait && frames.isEmpty ? ZMQ_DONTWAIT : 0
            do throws(ZMQError) {
                try check(zmq_msg_recv(message, handle, flags), "receive")
            } catch where error.isWouldBlock && frames.isEmpty {
                return nil
            }
            let size = zmq_msg_size(message)
            let data = zmq_msg_data(message)!
            frames.append([UInt8](UnsafeRawBufferPointer(start: data, count: size)))
            if zmq_msg_more(message) == 0 { return frames }
        }
    }
}
