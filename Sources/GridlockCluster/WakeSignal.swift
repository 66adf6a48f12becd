// A doorbell one thread rings and a socket loop hears in the same zmq_poll that waits for its
// sockets: a non-blocking pipe. Ringing is one write system call, with no ZeroMQ socket in the
// ringing thread (so that a thread stuck in a long solve holds no socket the context must wait
// for at exit). Rings made before the loop listens add up to one wake-up.

import Foundation
import GridlockClusterBase

public final class WakeSignal: @unchecked Sendable {
    /// The descriptor to poll for reading.
    public let descriptor: Int32
    private let ringer: Int32

    public init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw ClusterError("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        ringer = ends[1]
    }

    deinit {
        close(descriptor)
        close(ringer)
    }

    /// Wakes the listener. A full pipe already holds a ring, so a refused write loses nothing.
    public func ring() {
        var byte: UInt8 = 1
        _ = write(ringer, &byte, 1)
    }

    /// Silences the rings heard so far.
    public func consume() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) == bytes.count {}
    }
}
