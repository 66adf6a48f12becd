"""Fails when a function outside GridlockX86V4 uses instructions beyond plain x86-64.

Usage: check-portable.py BINARY

objdump disassembles BINARY; each function's name is demangled (swift demangle) and a function
whose name does not mention GridlockX86V4 (its own functions, and the core's generic code it
specialized with its types) may use only plain x86-64. `tzcnt` is allowed: LLVM emits it for
plain x86-64 where the operand is never zero, since it then runs as `bsf` on older CPUs.
"""

import re
import subprocess
import sys

WIDE_MODULE = "GridlockX86V4"
# Registers only AVX or AVX-512 has, and instructions of BMI1/2, LZCNT, MOVBE and POPCNT.
WIDE_REGISTER = re.compile(r"%(ymm\d+|zmm\d+|xmm(1[6-9]|2\d|3[01])|k[0-7])\b")
WIDE_MNEMONICS = {"andn", "bextr", "blsi", "blsmsk", "blsr", "bzhi", "mulx", "pdep", "pext", "rorx",
                  "sarx", "shlx", "shrx", "lzcnt", "movbe", "popcnt"}
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


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
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
