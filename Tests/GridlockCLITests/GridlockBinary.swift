// Runs the real `gridlock` executable that `swift build` put beside the tests.

import Foundation

struct CommandOutput {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum GridlockBinary {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable built with the tests: beside the test bundle, or under .build.
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["GRIDLOCK_BINARY"] { return URL(fileURLWithPath: path) }
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [besideTests, besideTests.deletingLastPathComponent()].map { $0.appendingPathComponent("gridlock") }
            + ["debug", "release"].map { repository.appendingPathComponent(".build/\($0)/gridlock") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> CommandOutput {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = repository
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandOutput(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}

extension GridlockBinary {
    /// Starts the binary in the background; its output is discarded.
    /// Starts `gridlock` in the background; its standard error goes to `errorLog` if given.
    static func start(_ arguments: [String], environment: [String: String] = [:], errorLog: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = repository
        process.standardOutput = FileHandle.nullDevice
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorLog)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    struct Timeout: Error {}

    /// Waits for a background process, at most `seconds`.
    static func wait(_ process: Process, seconds: Double) throws {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                throw Timeout()
            }
            usleep(20_000)
        }
    }
}

extension GridlockBinary {
    /// Runs another program and returns its standard output; `environment`, when given, is
    /// its whole environment.
    static func runTool(_ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
