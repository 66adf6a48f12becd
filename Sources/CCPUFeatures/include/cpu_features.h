#ifndef GRIDLOCK_CPU_FEATURES_H
#define GRIDLOCK_CPU_FEATURES_H

/// 1 when this CPU, and the kernel's saved state, run x86-64-v4 code (AVX-512 F, BW, CD, DQ
/// and VL, and all of x86-64-v2 and v3: SSE4.2, POPCNT, CX16, AVX2, BMI1, BMI2, FMA, LZCNT,
/// MOVBE, F16C); 0 elsewhere, on every other architecture too.
int gridlock_cpu_runs_x86_64_v4(void);

#endif
