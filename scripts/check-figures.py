"""The README's figures, traced and measured again (issue 21).

1. Traced. Every speed or size figure in README.md (a ratio such as `1.7x`, a rate such as
   `65,000 puzzles/s`, a time or size a puzzle or a state, the time a piece of work takes, a
   cost in percent) must sit in a paragraph, table row or example comment that links to an
   entry of docs/benchmarks.md (`docs/benchmarks.md#ANCHOR`), and every such anchor, in the
   README and in docs/*.md, must name one of that file's headings. Figures inside code spans
   are output formats, not claims, and are not read. The settings below (timeouts, limits) are
   not measurements and are let through by name.
2. Measured again. The cheap figures (the two solver ratios, `bfs`'s bytes a state, the largest
   cluster's analysis) are measured with the binary under test; a README figure more than 25%
   off its measurement fails. Ratios come from one `bench` run that interleaves both solvers,
   so they hold on any machine; the analysis time is the best of three runs.

Usage: check-figures.py BINARY   (exit 1 on an untraced figure, a broken anchor or a figure off
by more than 25%; it prints each figure with its measurement)
"""

import json
import os
import re
import subprocess
import sys
import time

binary = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOLERANCE = 0.25

NUMBER = r"\d[\d,]*(?:\.\d+)?"
FIGURE_PATTERNS = [
    rf"\b{NUMBER}(?:-{NUMBER})?x\b(?!\d)",                            # a ratio: 1.7x, 1.1-1.5x
    rf"\b{NUMBER} (?:puzzles|jobs|states|lines|boards)/s\b",         # a rate
    rf"\b{NUMBER} (?:ns|µs|ms|s) a (?:\w+ )?(?:puzzle|job|state)\b",  # a time a unit of work
    rf"\b{NUMBER} (?:bytes|KiB|MiB|GiB) a (?:\w+ )?(?:puzzle|job|state)\b",
    rf"\b{NUMBER} (?:KiB|MiB|GiB|MB|GB) built\b",                    # a table's size
    rf"\b(?:in|takes|about) {NUMBER} (?:µs|ms|s|minutes)\b",          # how long a piece of work takes
    rf"\b{NUMBER}% of (?:the )?(?:throughput|time|speed)\b",          # a cost
    rf"\bcosts (?:about )?{NUMBER}%",
]
# Settings that read like figures: what the program waits for or allows, not what it measured.
SETTINGS = [
    "a queue of about 25 ms",       # the worker's credit, a setting of the coordinator
]


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen = {}
    result = set()
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        base = slug(line.lstrip("#"))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def units(path):
    """(line number, text) for each paragraph, table row and example comment of a Markdown file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    result = []
    paragraph, start = [], 0
    in_code, shell = False, False

    def flush():
        nonlocal paragraph
        if paragraph:
            result.append((start, " ".join(paragraph)))
        paragraph = []

    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            in_code = not in_code
            shell = in_code and stripped.startswith("```sh")
            continue
        if in_code:
            if shell and " # " in line:
                result.append((number, line.split(" # ", 1)[1]))
            continue
        if stripped.startswith("|"):
            flush()
            result.append((number, stripped))
        elif not stripped or stripped.startswith("#"):
            flush()
        else:
            if not paragraph:
                start = number
            paragraph.append(stripped)
    flush()
    return result


def untraced_figures(path, known):
    problems = []
    for number, text in units(path):
        links = re.findall(r"docs/benchmarks\.md#([\w-]+)", text) + re.findall(r"\(benchmarks\.md#([\w-]+)\)", text)
        for anchor in links:
            if anchor not in known:
                problems.append(f"{os.path.relpath(path, root)}:{number}: docs/benchmarks.md#{anchor} names no heading of docs/benchmarks.md")
        if not path.endswith("README.md"):
            continue
        prose = re.sub(r"`[^`]*`", "``", text)               # code spans: formats, not claims
        prose = re.sub(r"\]\([^)]*\)", "]()", prose)          # link targets
        for setting in SETTINGS:
            prose = prose.replace(setting, "")
        figures = [m.group(0) for pattern in FIGURE_PATTERNS for m in re.finditer(pattern, prose)]
        if figures and not links:
            problems.append(f"README.md:{number}: {', '.join(figures)}: name the docs/benchmarks.md entry it comes from")
    return problems


def bench(path, solvers):
    done = subprocess.run([binary, "bench", path, "--solver", solvers, "--format", "json"],
                          cwd=root, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"check-figures: gridlock bench {path} --solver {solvers} exited {done.returncode}:\n{done.stderr}")
    return {row["solver"]: row for row in json.loads(done.stdout)["solvers"]}


def best_wall_time(arguments, runs=3):
    best = None
    for _ in range(runs):
        started = time.monotonic()
        subprocess.run([binary] + arguments, cwd=root, capture_output=True, check=True, timeout=600)
        elapsed = time.monotonic() - started
        best = elapsed if best is None else min(best, elapsed)
    return best


# Each: what it is, the README's words holding the figure (one number group; they must occur
# exactly once), and how to measure it.
MEASURED = [
    ("bidirectional's time over bfs's on rush1000",
     r"(\d+(?:\.\d+)?)x on `rush1000`",
     lambda: bench("data/rushhour/rush1000.txt", "bfs,bidirectional")["bidirectional"]["time_vs_first"]),
    ("norvig's time over bitset's on top95",
     r"(\d+(?:\.\d+)?)x `norvig`",
     lambda: bench("data/sudoku/top95.txt", "bitset,norvig")["norvig"]["time_vs_first"]),
    ("bfs's bytes a state on rush1000",
     r"(\d+(?:\.\d+)?) bytes a state on `rush1000`",
     lambda: bench("data/rushhour/rush1000.txt", "bfs")["bfs"]["bytes_per_state"]),
    ("the largest cluster's analysis, seconds (best of 3)",
     r"takes (\d+(?:\.\d+)?) s \(\[measured\]\(docs/benchmarks\.md#the-largest-clusters-analysis\)",
     lambda: best_wall_time(["analyze", "BBoJoooHoJCCGHAAKLGDDoKLooIEEoFFIooo"])),
]


def main():
    known = anchors(os.path.join(root, "docs", "benchmarks.md"))
    documents = [os.path.join(root, "README.md")] + sorted(
        os.path.join(root, "docs", name) for name in os.listdir(os.path.join(root, "docs")) if name.endswith(".md"))
    problems = []
    for path in documents:
        problems += untraced_figures(path, known)
    readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    for name, words, measure in MEASURED:
        found = re.findall(words, readme)
        if len(found) != 1:
            problems.append(f"README.md: {name}: expected its figure once (/{words}/), found {len(found)}: update scripts/check-figures.py with the README")
            continue
        quoted = float(found[0])
        measured = measure()
        off = quoted / measured - 1
        verdict = "ok" if abs(off) <= TOLERANCE else "OFF"
        print(f"check-figures: {name}: README {quoted:g}, measured {measured:.3g} ({off:+.0%}) {verdict}")
        if verdict != "ok":
            problems.append(f"README.md: {name}: the README says {quoted:g}, measured {measured:.3g}, {off:+.0%} off (at most {TOLERANCE:.0%}): measure it again and update the README and docs/benchmarks.md")
    for problem in problems:
        print("FAIL " + problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-figures: every figure of the README names its entry; {len(MEASURED)} measured again, each within {TOLERANCE:.0%}")


main()
