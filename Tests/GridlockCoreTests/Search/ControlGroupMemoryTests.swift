import Testing
@testable import GridlockCore

// The default memory budget follows a control group's limit (a container's, a Slurm job's)
// where it is below the machine's memory.

@Suite("Control group memory") struct ControlGroupMemoryTests {
    @Test("cgroup v1: the tightest memory.limit_in_bytes of the group and its ancestors; the 'no limit' value is none")
    func versionOne() {
        let files = [
            "/cg/memory/job/step/memory.limit_in_bytes": "9223372036854771712\n",
            "/cg/memory/job/memory.limit_in_bytes": "17179869184\n",
            "/cg/memory/memory.limit_in_bytes": "9223372036854771712\n",
        ]
        let membership = "9:name=systemd:/\n4:memory:/job/step\n1:cpu:/\n0::/\n"
        #expect(ControlGroupMemory.limit(membership: membership, root: "/cg", read: { files[$0] }) == 17_179_869_184)
        // With no limit anywhere, none.
        let unlimited = files.mapValues { _ in "9223372036854771712\n" }
        #expect(ControlGroupMemory.limit(membership: membership, root: "/cg", read: { unlimited[$0] }) == nil)
    }

    @Test("cgroup v2: memory.max, where 'max' is no limit")
    func versionTwo() {
        let files = ["/cg/slurm/job7/memory.max": "max\n", "/cg/slurm/memory.max": "1073741824\n"]
        #expect(ControlGroupMemory.limit(membership: "0::/slurm/job7\n", root: "/cg", read: { files[$0] }) == 1 << 30)
        #expect(ControlGroupMemory.limit(membership: "0::/other\n", root: "/cg", read: { files[$0] }) == nil)
    }

    @Test("no /proc, or files that say nothing a number: no limit")
    func nothingToRead() {
        #expect(ControlGroupMemory.limit(membership: nil) == nil)
        #expect(ControlGroupMemory.limit(membership: "garbage", root: "/cg", read: { _ in "x" }) == nil)
        #expect(ControlGroupMemory.bytes("0") == nil)
        #expect(ControlGroupMemory.ancestry(of: "/a/b") == ["/a/b", "/a", ""])
    }
}
