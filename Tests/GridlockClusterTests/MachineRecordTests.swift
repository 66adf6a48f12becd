// Reading a machine from /proc and /sys text: other machines' files, not only this one's.

import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct MachineRecordTests {
    /// Two sockets, two cores each, two threads a core: 8 processors, 4 physical cores.
    static let twoSockets = (0..<8).map { processor in
        """
        processor\t: \(processor)
        vendor_id\t: GenuineIntel
        model name\t: Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz
        cpu MHz\t\t: \(2_000 + processor * 100).000
        physical id\t: \(processor / 4)
        core id\t\t: \(processor % 2)
        flags\t\t: fpu vme sse2

        """
    }.joined()

    @Test("cpuinfo: the model, hardware threads, and physical cores counted by socket and core id")
    func cpuInfo() {
        let cpu = MachineRecord.CPUInfo(Self.twoSockets)
        #expect(cpu.model == "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz")
        #expect(cpu.threads == 8 && cpu.cores == 4)
        // The clock: the mean of the threads' (2000 to 2700 MHz); SMT from /sys, else from the counts.
        #expect(cpu.megahertz == 2_350)
        #expect(MachineRecord.smt(active: nil, cpu: cpu) == "on")
        #expect(MachineRecord.smt(active: "0\n", cpu: cpu) == "off")
        #expect(MachineRecord.smt(active: "1\n", cpu: MachineRecord.CPUInfo("processor : 0\n")) == "on")
        #expect(MachineRecord.smt(active: "garbage", cpu: MachineRecord.CPUInfo("processor : 0\n")) == "off")
        #expect(MachineRecord.smt(active: nil, cpu: MachineRecord.CPUInfo("")) == nil)
        #expect(MachineRecord.CPUInfo("processor : 0\ncpu MHz : nan\n").megahertz == 0)
        // An ARM board says no model name nor core id: threads stand for cores.
        let arm = MachineRecord.CPUInfo("processor\t: 0\nBogoMIPS\t: 48.00\n\nprocessor\t: 1\nBogoMIPS\t: 48.00\n")
        #expect(arm.model == "unknown" && arm.threads == 2 && arm.cores == 2)
        #expect(MachineRecord.CPUInfo("").threads == 0)
        // A model name longer than a wire name is cut, so the worker's record always travels.
        let long = MachineRecord.CPUInfo("processor : 0\nmodel name : " + String(repeating: "x", count: 400) + "\n")
        #expect(long.model.utf8.count == WireProtocol.maximumNameBytes)
    }

    @Test("turbo from intel_pstate's no_turbo or cpufreq's boost, each the other way round; memory and load")
    func sysAndProc() {
        #expect(MachineRecord.turbo(noTurbo: "1\n", boost: nil) == "off")
        #expect(MachineRecord.turbo(noTurbo: "0\n", boost: "0\n") == "on")
        #expect(MachineRecord.turbo(noTurbo: nil, boost: "1\n") == "on")
        #expect(MachineRecord.turbo(noTurbo: nil, boost: "0") == "off")
        #expect(MachineRecord.turbo(noTurbo: "garbage", boost: nil) == nil)
        #expect(MachineRecord.turbo(noTurbo: nil, boost: nil) == nil)
        #expect(MachineRecord.memoryBytes(meminfo: "MemTotal:       24684092 kB\nMemFree:  1 kB\n") == 24_684_092 * 1024)
        #expect(MachineRecord.memoryBytes(meminfo: "MemTotal: 99999999999999999999 kB\n") == 0)
        #expect(MachineRecord.loadAverage("1.88 1.56 0.87 1/97 13356\n") == 1.88)
        #expect(MachineRecord.loadAverage("nan 1 1") == 0)
    }

    @Test("this machine: what any Linux shows, and a record that travels")
    func current() throws {
        let record = MachineRecord.current(host: "here")
        #expect(record.threads >= 1 && record.cores >= 1 && record.cores <= record.threads)
        #expect(record.memoryBytes > 1 << 20 && !record.kernel.isEmpty && record.host == "here")
        #expect(record.method.contains("outside: "))
        #expect(try WireMessage.decode(WireMessage.machine(batch: "b", record).encoded()) == .machine(batch: "b", record))
    }
}
