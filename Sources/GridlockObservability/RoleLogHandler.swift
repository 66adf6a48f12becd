// The roles' log lines (swift-log): each with its time (UTC, milliseconds), level and role, as
// text for a person or as one JSON object a line for a log collector (`--log-format json`).
// Written to standard error whole, one write a line, so lines of two threads never interleave.

import Foundation
import Logging

public enum LogFormat: String, Sendable, CaseIterable {
    case text, json
}

public struct RoleLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public let role: String
    public let format: LogFormat
    private let write: @Sendable (String) -> Void

    public init(role: String, format: LogFormat, write: @escaping @Sendable (String) -> Void = RoleLogHandler.standardError) {
        self.role = role
        self.format = format
        self.write = write
    }

    public static let standardError: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data(line.utf8)) }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        write(Self.line(time: Date(), level: event.level, role: role, message: "\(event.message)", metadata: merged, format: format))
    }

    /// One line, newline included. Pure, for the tests.
    public static func line(
        time: Date, level: Logger.Level, role: String, message: String, metadata: Logger.Metadata, format: LogFormat
    ) -> String {
        let stamp = time.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        switch format {
        case .text:
            let extra = metadata.isEmpty ? "" : " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            // Control characters in a message (a name from the wire) must not rewrite the terminal.
            return "\(stamp) \(level.rawValue) \(role): \(printable(message))\(extra)\n"
        case .json:
            var object: [String: Any] = ["time": stamp, "level": level.rawValue, "role": role, "message": message]
            for (key, value) in metadata where object[key] == nil { object[key] = json(value) }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self) + "\n"
        }
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): Double("\(convertible)").map { $0 as Any } ?? "\(convertible)"
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }

    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
            scalar.value < 0x20 || scalar.value == 0x7F ? Array("\\u{\(String(scalar.value, radix: 16))}".unicodeScalars) : [scalar]
        }))
    }
}
