// A worker runs an outside solver's job only with the command the coordinator named (issue 19):
// the job carries the command's digest, and a worker whose own command differs, or that has no
// such solver, fails the job and says why, without running anything.

import Testing
@testable import GridlockCluster
import GridlockCore
import GridlockWire

@Suite struct ExternalJobTests {
    static let worker = WorkerIdentity(host: "h", pid: 1)

    static func job(command: String) -> Job {
        Job(batch: "b", id: 0, attempt: 1, kind: .rushhour, puzzle: "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo", solver: "mine",
            maxStates: 1_000, timeoutSeconds: nil, solverDigest: JobFingerprint.digest(of: command))
    }

    @Test("another command than the coordinator's fails the job, naming the flag to fix")
    func otherCommandRefused() {
        let result = JobRunner.run(
            Self.job(command: "python3 a.py"), worker: Self.worker, meter: PeakMemoryMeter(),
            external: [ExternalSolver(kind: .rushhour, name: "mine", command: "python3 b.py")])
        #expect(result.status == .failed && result.error?.contains("runs another command than the coordinator's") == true, "\(result.error ?? "")")
    }

    @Test("a worker without the outside solver fails the job, naming --external")
    func unknownOutsideSolver() {
        let result = JobRunner.run(Self.job(command: "python3 a.py"), worker: Self.worker, meter: PeakMemoryMeter())
        #expect(result.status == .failed && result.error?.contains("needs --external on the worker too") == true, "\(result.error ?? "")")
    }

    /// (A built-in solver's fingerprint is pinned across builds by WireMessageTests.)
    @Test("the command is part of the job's identity: another command, another fingerprint")
    func commandInFingerprint() {
        #expect(Self.job(command: "a").fingerprint != Self.job(command: "b").fingerprint)
        let builtIn = Job(batch: "b", id: 0, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil)
        #expect(builtIn.solverDigest == 0 && JobFingerprint.digest(of: "") != 0)
    }
}
