// The socket types Gridlock uses (libzmq 4.3.4 without the DRAFT API).

import CZeroMQ

public enum ZMQSocketType: Sendable, CaseIterable {
    /// Routes by the identity frame it prepends; the coordinator's and sink's side.
    case router
    /// Asynchronous request side; a worker's connection to a ROUTER.
    case dealer
    case push
    case pull
    case pair
    /// Strict request-reply, answering side: the ZAP handler's.
    case rep

    var rawValue: Int32 {
        switch self {
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        case .pair: ZMQ_PAIR
        case .rep: ZMQ_REP
        }
    }
}
