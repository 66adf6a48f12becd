// The serving solvers of this process (ExternalServer.swift), one a solver.

import Foundation
import GridlockCore
import GridlockWire
import Synchronization

/// The serving solvers of this process, one server per solver, started at its first puzzle and
/// kept for the next; a puzzle that needs another environment (a tile board's goal) or memory
/// limit restarts it with them.
public enum ExternalServers {
    private final class Servers: @unchecked Sendable {
        var byName: [String: ExternalServer] = [:]
    }

    private static let servers = Mutex(Servers())

    static func answer(
        _ solver: ExternalSolver, puzzle: ParsedPuzzle, deadline: ContinuousClock.Instant?, limits: JobLimits
    ) throws(ExternalProcess.StartFailure) -> ExternalProcess.Run {
        let environment = puzzle.externalEnvironment
        let server = servers.withLock { servers in
            let key = solver.kind.rawValue + ":" + solver.name
            if let server = servers.byName[key], server.solver == solver, server.environment == environment,
               server.memoryLimitBytes == limits.memoryBytes {
                return server
            }
            let server = ExternalServer(solver: solver, environment: environment, memoryLimitBytes: limits.memoryBytes)
            servers.byName[key]?.stop()
            servers.byName[key] = server
            return server
        }
        return try server.answer(Array(puzzle.externalLine.utf8), deadline: deadline, limits: limits)
    }

    /// After an answer that was no answer, or a wrong one, the server's next line may answer
    /// the last puzzle, not the next: it is replaced before its next puzzle.
    static func putOutOfStep(_ solver: ExternalSolver) {
        let server = servers.withLock { $0.byName[solver.kind.rawValue + ":" + solver.name] }
        server?.outOfStep = true
    }

    /// Every server stopped (a worker's or `solve`'s end), its control groups removed.
    public static func stopAll() {
        servers.withLock { servers in
            for server in servers.byName.values { server.stop() }
            servers.byName = [:]
        }
    }
}
