// Asked in C because Swift has no CPUID. Each feature of x86-64-v4 is read from CPUID here, and
// the registers' saved state from XGETBV (a kernel or hypervisor that does not save the AVX-512
// registers must not get AVX-512 code, whatever CPUID says). Not `__builtin_cpu_supports`:
// its answer for "x86-64-v4" reads a word that only newer static runtime libraries define.
#include "cpu_features.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <stdint.h>

static int has(unsigned int word, int bit) { return (word >> bit) & 1; }

static uint64_t saved_state(void) {
    uint32_t low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return ((uint64_t)high << 32) | low;
}

int gridlock_cpu_runs_x86_64_v4(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid_count(1, 0, &a, &b, &c, &d)) return 0;
    // x86-64-v2: SSE3, SSSE3, CX16, SSE4.1, SSE4.2, POPCNT; v3: FMA, MOVBE, F16C, and OSXSAVE
    // (XGETBV may be asked), AVX.
    int leaf1 = has(c, 0) && has(c, 9) && has(c, 13) && has(c, 19) && has(c, 20) && has(c, 23)
        && has(c, 12) && has(c, 22) && has(c, 29) && has(c, 27) && has(c, 28);
    if (!leaf1) return 0;
    // The kernel saves SSE, AVX, and AVX-512's mask, upper-256 and upper-16 registers.
    if ((saved_state() & 0xE6) != 0xE6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    // v3: BMI1, AVX2, BMI2; v4: AVX512F, AVX512DQ, AVX512CD, AVX512BW, AVX512VL.
    int leaf7 = has(b, 3) && has(b, 5) && has(b, 8)
        && has(b, 16) && has(b, 17) && has(b, 28) && has(b, 30) && has(b, 31);
    if (!leaf7) return 0;
    if (!__get_cpuid_count(0x80000001, 0, &a, &b, &c, &d)) return 0;
    // LAHF/SAHF in 64-bit mode (v2), LZCNT (v3).
    return has(c, 0) && has(c, 5);
}
#else
int gridlock_cpu_runs_x86_64_v4(void) { return 0; }
#endif
