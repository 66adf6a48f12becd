"""Fails when a function outside GridlockX86V4 uses instructions beyond plain x86-64.

Usage: check-portable.py BINARY
       check-portable.py --same-answers BINARY SOLVE-ARGUMENTS...   (the x86-64-v4 search and the
       portable one give the same answers, counts and moves, all but the time and the bytes)

objdump disassembles BINARY; each function's name is demangled (swift demangle) and a function
whose name does not mention GridlockX86V4 (its own functions, and the core's generic code it
specialized with its types) may use only plain x86-64 with CX16 (cmpxchg16b, which the Swift
runtime itself uses): no SSE3 to SSE4.2, AVX, AVX-512, BMI, LZCNT, MOVBE or POPCNT.

Not caught: `tzcnt`, which LLVM emits for plain x86-64 too (where it runs as `bsf`), so a copy
compiled for x86-64-v4 that relies on its answer for zero would pass; the run on an emulated
plain x86-64 (scripts/check-portable) is the second line. A function named after the module
but called from portable code before the CPU check would pass too: SolverPaths is the only
caller, after the check.
"""

import json
import os
import platform
import re
import subprocess
import sys

WIDE_MODULE = "GridlockX86V4"
# Registers only AVX or AVX-512 has, and instructions of BMI1/2, LZCNT, MOVBE and POPCNT.
WIDE_REGISTER = re.compile(r"%(ymm\d+|zmm\d+|xmm(1[6-9]|2\d|3[01])|k[0-7])\b")
WIDE_MNEMONICS = {
    # BMI1, BMI2, LZCNT, MOVBE, POPCNT
    "andn", "bextr", "blsi", "blsmsk", "blsr", "bzhi", "mulx", "pdep", "pext", "rorx", "sarx", "shlx",
    "shrx", "lzcnt", "movbe", "popcnt",
    # SSE3
    "addsubps", "addsubpd", "haddps", "haddpd", "hsubps", "hsubpd", "lddqu", "movddup", "movshdup",
    "movsldup", "fisttp", "fisttps", "fisttpl", "fisttpll", "monitor", "mwait",
    # SSSE3
    "pshufb", "palignr", "phaddw", "phaddd", "phaddsw", "phsubw", "phsubd", "phsubsw", "pabsb", "pabsw",
    "pabsd", "psignb", "psignw", "psignd", "pmaddubsw", "pmulhrsw",
    # SSE4.1
    "ptest", "pcmpeqq", "pextrb", "pextrd", "pextrq", "pinsrb", "pinsrd", "pinsrq", "pminsb", "pminsd",
    "pminuw", "pminud", "pmaxsb", "pmaxsd", "pmaxuw", "pmaxud", "pmulld", "pmuldq", "pblendvb", "pblendw",
    "blendps", "blendpd", "blendvps", "blendvpd", "roundss", "roundsd", "roundps", "roundpd", "dpps",
    "dppd", "mpsadbw", "phminposuw", "packusdw", "movntdqa", "insertps", "extractps",
    "pmovsxbw", "pmovsxbd", "pmovsxbq", "pmovsxwd", "pmovsxwq", "pmovsxdq",
    "pmovzxbw", "pmovzxbd", "pmovzxbq", "pmovzxwd", "pmovzxwq", "pmovzxdq",
    # SSE4.2
    "pcmpgtq", "crc32", "crc32b", "crc32w", "crc32l", "crc32q", "pcmpestri", "pcmpestrm", "pcmpistri",
    "pcmpistrm",
}
FUNCTION = re.compile(r"^[0-9a-f]+ <(.*)>:$")


def wide(instruction):
    mnemonic = instruction.split()[0] if instruction.split() else ""
    # Every AVX and AVX-512 instruction is VEX- or EVEX-encoded, and objdump names those v...
    return mnemonic.startswith("v") or mnemonic in WIDE_MNEMONICS or WIDE_REGISTER.search(instruction)


def wide_functions(binary):
    """Each function that uses a wide instruction, with the first one it uses."""
    found = {}
    current = None
    dump = subprocess.Popen(["objdump", "-d", "--no-show-raw-insn", binary], stdout=subprocess.PIPE, text=True)
    for line in dump.stdout:
        match = FUNCTION.match(line)
        if match:
            current = match.group(1)
            continue
        fields = line.split("\t")
        if len(fields) >= 2 and current not in found and wide(fields[1].strip()):
            found[current] = fields[1].strip()
    if dump.wait() != 0:
        sys.exit(f"check-portable: objdump failed on {binary}")
    return found


def demangled(names):
    output = subprocess.run(["swift", "demangle"], input="\n".join(names), capture_output=True, text=True, check=True)
    return output.stdout.splitlines()


def answers(binary, arguments, environment):
    """`gridlock solve ARGUMENTS --format json`, each line without its time and bytes."""
    done = subprocess.run([binary, "solve", *arguments, "--format", "json"], capture_output=True, text=True,
                          env={**os.environ, **environment}, timeout=600)
    if done.returncode != 0:
        sys.exit(f"check-portable: gridlock solve {' '.join(arguments)} ({environment}) exited {done.returncode}:\n{done.stderr}")
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    for line in lines:
        for volatile in ("seconds", "memoryBytes"):
            line.get("stats", {}).pop(volatile, None)
    return lines


def same_answers(binary, arguments):
    """The release binary's x86-64-v4 search and its portable one: the same lines."""
    wide = answers(binary, arguments, {})
    portable = answers(binary, arguments, {"GRIDLOCK_PORTABLE": "1"})
    if len(wide) != len(portable) or not wide:
        sys.exit(f"check-portable: solve {' '.join(arguments)}: {len(wide)} answers wide, {len(portable)} portable")
    for index, (one, other) in enumerate(zip(wide, portable)):
        if one != other:
            sys.exit(f"check-portable: solve {' '.join(arguments)}, answer {index + 1} differs:\n"
                     f"  x86-64-v4: {json.dumps(one)[:600]}\n  portable:  {json.dumps(other)[:600]}")
    print(f"check-portable: solve {' '.join(arguments)}: {len(wide)} answers, the same on both paths")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--same-answers":
        same_answers(sys.argv[2], sys.argv[3:])
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if platform.machine() != "x86_64":
        print(f"check-portable: {platform.machine()}, not x86-64: nothing to check")
        return
    binary = sys.argv[1]
    found = wide_functions(binary)
    names = list(found)
    readable = demangled(names) if names else []
    outside = [(name, text) for name, text in zip(names, readable) if WIDE_MODULE not in text]
    inside = len(names) - len(outside)
    if inside == 0:
        sys.exit(f"check-portable: no function of {WIDE_MODULE} uses a wide instruction in {binary}: "
                 "is the module still compiled for x86-64-v4 (Package.swift)?")
    for name, text in outside:
        print(f"check-portable: {text[:160]}\n    uses `{found[name]}` outside {WIDE_MODULE}", file=sys.stderr)
    if outside:
        sys.exit(f"check-portable: {len(outside)} function(s) outside {WIDE_MODULE} need more than plain x86-64")
    print(f"check-portable: {inside} functions of {WIDE_MODULE} use x86-64-v4; none outside it")


if __name__ == "__main__":
    main()
