// What this CPU runs beyond plain x86-64, asked once (CPUID, through C). The code compiled for
// more (GridlockX86V4) may be called only when this says so, so the question is asked here,
// in code built for every x86-64, never in that module.

import CCPUFeatures

public enum CPUFeatures {
    /// Whether this CPU, and the kernel, run x86-64-v4 code (AVX-512 and all of x86-64-v3).
    public static let runsX86V4 = gridlock_cpu_runs_x86_64_v4() == 1
}
