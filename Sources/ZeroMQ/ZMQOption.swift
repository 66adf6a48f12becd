// The socket options Gridlock sets, each with its unit in its name.

import CZeroMQ

public struct ZMQOption: Sendable {
    enum Value: Sendable {
        case int(Int32)
        case int64(Int64)
        case bytes([UInt8])
    }

    let code: Int32
    let name: String
    let value: Value

    /// How long close waits to deliver queued messages: -1 forever, 0 drop them.
    public static func lingerMilliseconds(_ value: Int32) -> ZMQOption {
        ZMQOption(code: ZMQ_LINGER, name: "LINGER", value: .int(value))
    }

    /// The most messages queued per peer before sends block or drop.
    public static func sendHighWaterMark(_ value: Int32) -> ZMQOption {
        ZMQOption(code: ZMQ_SNDHWM, name: "SNDHWM", value: .int(value))
    }

    public static func receiveHighWaterMark(_ value: Int32) -> ZMQOption {
        ZMQOption(code: ZMQ_RCVHWM, name: "RCVHWM", value: .int(value))
    }

    /// The identity a DEALER presents to a ROUTER, as the first frame of what it sends.
    public static func routingID(_ bytes: [UInt8]) -> ZMQOption {
        ZMQOption(code: ZMQ_ROUTING_ID, name: "ROUTING_ID", value: .bytes(bytes))
    }

    /// A ROUTER fails with EHOSTUNREACH instead of silently dropping a message to an unknown peer.
    public static func routerMandatory(_ on: Bool) -> ZMQOption {
        ZMQOption(code: ZMQ_ROUTER_MANDATORY, name: "ROUTER_MANDATORY", value: .int(on ? 1 : 0))
    }

    /// Queue messages only to completed connections.
    public static func immediate(_ on: Bool) -> ZMQOption {
        ZMQOption(code: ZMQ_IMMEDIATE, name: "IMMEDIATE", value: .int(on ? 1 : 0))
    }

    /// Peers that send a larger message are disconnected: a bound socket's guard against junk.
    public static func maximumMessageBytes(_ value: Int64) -> ZMQOption {
        ZMQOption(code: ZMQ_MAXMSGSIZE, name: "MAXMSGSIZE", value: .int64(value))
    }

    /// ZMTP heartbeats: libzmq pings the peer this often and drops a dead connection.
    public static func heartbeatIntervalMilliseconds(_ value: Int32) -> ZMQOption {
        ZMQOption(code: ZMQ_HEARTBEAT_IVL, name: "HEARTBEAT_IVL", value: .int(value))
    }

    public static func heartbeatTimeoutMilliseconds(_ value: Int32) -> ZMQOption {
        ZMQOption(code: ZMQ_HEARTBEAT_TIMEOUT, name: "HEARTBEAT_TIMEOUT", value: .int(value))
    }

    public static func reconnectIntervalMilliseconds(_ value: Int32) -> ZMQOption {
        ZMQOption(code: ZMQ_RECONNECT_IVL, name: "RECONNECT_IVL", value: .int(value))
    }
}
