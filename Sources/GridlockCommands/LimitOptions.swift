// `--time-limit` and `--memory-limit 256M` (the size read by ByteSize, in GridlockCluster,
// which the config file shares), as `solve`, `batch` and `coordinator` take them.

import ArgumentParser
import GridlockCluster
import GridlockClusterBase
import GridlockCore
import GridlockWire

struct MemorySize: Sendable, Hashable, CustomStringConvertible {
    var bytes: Int

    /// For `@Option(transform:)`: a refusal that says what a size looks like.
    static func named(_ flag: String) -> @Sendable (String) throws -> MemorySize {
        { text in
            guard let bytes = ByteSize.parse(text) else {
                throw ValidationError("\(flag) takes a size with its unit, from 4K to 4194304T (2^62 bytes): 256M, 1.5G (K, M, G, T are powers of 1024); it was '\(text)'")
            }
            return MemorySize(bytes: bytes)
        }
    }

    var description: String { bytes.bytes }
}

struct LimitOptions: ParsableArguments {
    @Option(help: "Stop a job (status cutoff, termination timeout) once its solver has used this many seconds of CPU time: the solving thread's, or an outside solver's whole process tree's. Without --timeout it implies a wall-time limit of twice this plus one second (as BenchExec), so a solver that sleeps is stopped too.")
    var timeLimit: Double?

    @Option(help: "The memory a job's solver may hold, with its unit (256M, 2G): a built-in search stops once its tables pass it, an outside solver's process tree is killed when it reaches it; either way the job is cut off, termination memout.", transform: MemorySize.named("--memory-limit"))
    var memoryLimit: MemorySize?

    func validate() throws {
        try TimeLimit.check(timeLimit, flag: "--time-limit")
    }

    /// The flags' limits, else the config file's.
    func limits(_ file: ClusterConfig = ClusterConfig()) -> JobLimits {
        JobLimits(
            cpuSeconds: timeLimit ?? file.double("job.time_limit_s"),
            memoryBytes: memoryLimit?.bytes ?? file.string("job.memory_limit").flatMap(ByteSize.parse))
    }
}
