// Asked in C because Swift has no CPUID. The compiler's runtime reads CPUID once, and counts
// AVX-512 as present only when the kernel saves its registers (XGETBV), so a guest whose host
// hides them answers 0.
#include "cpu_features.h"

int gridlock_cpu_runs_x86_64_v4(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("x86-64-v4") ? 1 : 0;
#else
    return 0;
#endif
}
