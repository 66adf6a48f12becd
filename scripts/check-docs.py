"""The docs' examples, run (issue 21): every command in a ```sh block of README.md and
docs/*.md, and every example under "Examples:" in every --help, cram-style.

An example is a command line (continued by a trailing backslash). After it, in the docs:
  # exit N          (in its trailing comment) the exit status it must end with (default 0)
  #   TEXT          (a comment line right below it, hash and three spaces) a line its output
                    must contain
  (slow: REASON)    (in its trailing comment) minutes of work: skipped, and counted
  (skip: REASON)    (in its trailing comment) anything else it needs that a test run lacks
Commands of programs this machine cannot run here (docker, kubectl) and examples with a
placeholder (FILE, DB, DIR, POD in capitals) or a role's address on other machines are
skipped and counted too. Examples run in order, each document in a scratch directory that
holds the repository's data/, config/, Tests/, examples/ and deploy/ (copied), with `gridlock` (and
scripts/gridlock) the binary under test.

Every --help is also read at 80 columns (issue 46): a line laid out by hand (indented: a table
row, an example) that an 80-column terminal would break, or any line still wider than 80, is
a failure.

Usage: check-docs.py BINARY [ONLY]   (prints each failure, then the counts; exit 1 on a
failure; ONLY: the documents whose name contains it, e.g. README or --help; GRIDLOCK_DOCS_VERBOSE=1
prints each example's time)
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

binary = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 90
README_SHARE = 90  # percent of the README's examples that must run (issue 21)
skip_programs = {
    "docker": "needs a Docker engine", "kubectl": "needs a Kubernetes cluster", "scripts/test": "the test suite itself",
    "sbatch": "needs a Slurm cluster", "squeue": "needs a Slurm cluster", "scancel": "needs a Slurm cluster",
}
placeholder = re.compile(r"(?<![\w/.-])(FILE|DB|DIR|POD|OLD|NEW|N|PUZZLE|ADDRESS)(?![\w-])")
# "..." standing for the rest of a command line (not inside a board such as 'b...').
ellipsis = re.compile(r"(^|\s)\.\.\.(\s|$)")
remote_role = re.compile(r"^gridlock (coordinator|worker|sink)\b.*tcp://(?!127\.|localhost)")


class Example:
    def __init__(self, origin, command, comment):
        self.origin, self.command, self.comment = origin, command, comment
        found = re.search(r"(?:^|\s)exit (\d+)\b", comment)
        self.exit = int(found.group(1)) if found else 0
        self.expected = []
        marked = re.search(r"\((slow|skip): ([^)]*)\)", comment)
        self.skip = f"{marked.group(1)}: {marked.group(2)}" if marked else None
        program = command.split()[0] if command.split() else ""
        for name, reason in skip_programs.items():
            if program == name or command.startswith(name):
                self.skip = reason
        if self.skip is None and placeholder.search(command):
            self.skip = f"a placeholder ({placeholder.search(command).group(1)})"
        if self.skip is None and ellipsis.search(command):
            self.skip = "a placeholder (...)"
        if self.skip is None and remote_role.search(command):
            self.skip = "a role of a cluster on other machines (runs until stopped)"


def split_comment(line):
    """The command and its trailing comment (a # outside quotes)."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index].rstrip(), line[index + 1:]
    return line.rstrip(), ""


def examples_in_text(origin, lines, command_start):
    """Examples in `lines` (already inside a code block or an Examples section)."""
    found = []
    index = 0
    while index < len(lines):
        raw = lines[index].strip()
        index += 1
        if not raw or raw.startswith("#") or not command_start(raw):
            continue
        command, comment = split_comment(raw)
        while command.endswith("\\") and index < len(lines):
            command = command[:-1].rstrip() + " " + lines[index].strip()
            command, more = split_comment(command)
            comment += more
            index += 1
        example = Example(f"{origin}", command, comment)
        while index < len(lines) and lines[index].strip().startswith("#   "):
            example.expected.append(lines[index].strip()[4:])
            index += 1
        found.append(example)
    return found


# A command line in a block that is not ```sh: a record of what was run to measure something.
recorded = re.compile(r"^(\$ )?(scripts/gridlock|gridlock|\./gridlock\S*|\.build/\S+/gridlock|/usr/bin/time|perf|swift run)\b")


def doc_examples(path):
    text = open(os.path.join(root, path)).read()
    found = []
    for block in re.finditer(r"```(\w*)\n(.*?)```", text, re.S):
        line = text[:block.start()].count("\n") + 2
        lines = block.group(2).split("\n")
        if block.group(1) == "sh":
            found += examples_in_text(f"{path}:{line}", lines, lambda raw: not raw.startswith("$"))
            continue
        for raw in lines:
            if recorded.match(raw.strip()):
                example = Example(f"{path}:{line}", raw.strip(), "")
                example.skip = "a record of a measurement (not a ```sh block)"
                found.append(example)
    return found


HELP_WIDTH = 80
# --help lines that do not fit HELP_WIDTH columns: "gridlock X --help: ..." each.
help_width_offenders = []


def help_text(command, columns):
    return subprocess.run([binary] + command + ["--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": str(columns)})


def check_help_width(name, command, wide):
    """ArgumentParser wraps the help to the terminal's width: prose is meant to be wrapped, but a
    line laid out by hand (indented) must come through an 80-column terminal unbroken."""
    narrow = help_text(command, HELP_WIDTH).stdout
    shown = set(narrow.split("\n"))
    laid_out = wide.split("\nUSAGE:", 1)[0].split("\n")
    for line in laid_out:
        if line[:1] in (" ", "\t") and line not in shown:
            help_width_offenders.append(f"{name} --help: {len(line)} columns, broken at {HELP_WIDTH}: {line.strip()[:70]}")
    for line in narrow.split("\n"):
        if len(line) > HELP_WIDTH:
            help_width_offenders.append(f"{name} --help: {len(line)} columns even at {HELP_WIDTH}: {line.strip()[:70]}")


def help_examples():
    commands = [[]]
    found = []
    seen = set()
    while commands:
        command = commands.pop(0)
        name = " ".join(["gridlock"] + command)
        done = help_text(command, 1000)
        if done.returncode != 0 or "USAGE:" not in done.stdout:
            raise SystemExit(f"check-docs: {name} --help failed (exit {done.returncode}): {done.stderr[-300:]}")
        text = done.stdout
        check_help_width(name, command, text)
        if "SUBCOMMANDS:" in text:
            listing = text.split("SUBCOMMANDS:\n", 1)[1].split("\n\n", 1)[0]
            for line in listing.split("\n"):
                if line.startswith("  ") and not line.startswith("   ") and line.split()[0] not in ("help",):
                    sub = command + [line.split()[0]]
                    if tuple(sub) not in seen:
                        seen.add(tuple(sub))
                        commands.append(sub)
        section = re.search(r"Examples?:\n((?:  .*\n?)+)", text)
        if section:
            found += examples_in_text(f"{name} --help", section.group(1).split("\n"), lambda raw: raw.startswith("gridlock") or raw.startswith("swift run"))
    return found


def scratch():
    directory = tempfile.mkdtemp(prefix="gridlock-docs.")
    for name in ["data", "config", "Tests", "examples"]:
        os.symlink(os.path.join(root, name), os.path.join(directory, name))
    shutil.copytree(os.path.join(root, "deploy"), os.path.join(directory, "deploy"))
    bin_dir = os.path.join(directory, ".bin")
    os.makedirs(os.path.join(directory, "scripts"))
    os.makedirs(bin_dir)
    os.symlink(binary, os.path.join(bin_dir, "gridlock"))
    os.symlink(binary, os.path.join(directory, "scripts", "gridlock"))
    os.makedirs(os.path.join(directory, "home"))
    return directory


# Outcomes of commands run already, by their text: an example the README and a --help share
# (a whole Korf 100, say) runs once. Only commands that read the repository's files and write
# nothing are shared: solve, bench, analyze and hint, no redirection, every file under data/ or
# Tests/.
outcomes = {}


def shareable(command):
    words = command.split()
    if len(words) < 2 or words[0] != "gridlock" or words[1] not in ("solve", "bench", "analyze", "hint") or re.search(r"[<>|;&]", command):
        return False
    files = [word for word in words[2:] if re.search(r"\.(txt|sqlite|jsonl?|csv)$", word)]
    return all(word.startswith(("data/", "Tests/")) for word in files)


def run_command(command, directory, env):
    """Runs `command` in its own process group, with no input; on the time limit the whole group
    (a batch's workers too) is killed."""
    process = subprocess.Popen(["bash", "-o", "pipefail", "-c", command], cwd=directory, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.communicate()
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def run(examples, directory):
    failures, ran, skipped = [], 0, []
    env = {**os.environ, "PATH": os.path.join(directory, ".bin") + ":" + os.environ["PATH"], "HOME": os.path.join(directory, "home"),
           "COLUMNS": "80", "GRIDLOCK_CACHE": cache}
    for example in examples:
        if example.skip:
            skipped.append(example)
            continue
        ran += 1
        command = example.command
        started = time.time()
        share = shareable(command)
        try:
            if share and command in outcomes:
                done = outcomes[command]
            else:
                done = run_command(command, directory, env)
                if share:
                    outcomes[command] = done
            if os.environ.get("GRIDLOCK_DOCS_VERBOSE"):
                print(f"  {time.time() - started:6.1f} s  exit {done.returncode}  {example.origin}: {command[:90]}", file=sys.stderr)
        except subprocess.TimeoutExpired:
            failures.append(f"{example.origin}: {command}\n    ran over {TIMEOUT} s: mark it (slow: ...) or make it quicker")
            continue
        output = done.stdout + done.stderr
        if done.returncode != example.exit:
            failures.append(f"{example.origin}: {command}\n    exit {done.returncode}, the text says {example.exit}\n    " + output[-600:].replace("\n", "\n    "))
        for line in example.expected:
            if line not in output:
                failures.append(f"{example.origin}: {command}\n    the output lacks the promised line: {line}\n    " + output[-600:].replace("\n", "\n    "))
    return failures, ran, skipped


# The pattern databases, built once for every document (about 30 s each time otherwise).
cache = tempfile.mkdtemp(prefix="gridlock-docs-cache.")
# The 15-puzzle's pattern databases, built once into that cache before any example runs: a
# build is setup (issue 43), half a minute or more on a slow machine, and would otherwise be
# booked against the first example that needs the tables, and its 90 s.
def build_tables():
    for goal in ("blank-last", "blank-first"):
        started = time.time()
        subprocess.run([binary, "pdb", "build", "--goal", goal], env={**os.environ, "GRIDLOCK_CACHE": cache},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900, check=True)
        print(f"check-docs: setup: the {goal} pattern databases built in {time.time() - started:.0f} s", file=sys.stderr)


def main():
    groups = [("README.md", doc_examples("README.md"))]
    for name in sorted(os.listdir(os.path.join(root, "docs"))):
        if name.endswith(".md"):
            groups.append((f"docs/{name}", doc_examples(f"docs/{name}")))
    helps = help_examples()
    if len(helps) < 40:
        raise SystemExit(f"check-docs: only {len(helps)} --help examples found: the help texts or their parsing changed")
    groups.append(("--help", helps))
    if len(sys.argv) > 2:
        groups = [group for group in groups if sys.argv[2] in group[0]]
    build_tables()
    all_failures = []
    counts = []
    for name, examples in groups:
        directory = scratch()
        try:
            failures, ran, skipped = run(examples, directory)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        all_failures += failures
        reasons = {}
        for example in skipped:
            reasons[example.skip] = reasons.get(example.skip, 0) + 1
        share = 100 * ran / max(1, ran + len(skipped))
        if name == "README.md" and share < README_SHARE:
            all_failures.append(f"README.md: only {share:.0f}% of its examples ran, under {README_SHARE}%: the README's examples"
                                " should run here; move run-books that need a cluster to docs/")
        counts.append(f"{name}: {ran} of {ran + len(skipped)} examples ran ({share:.0f}%), {len(skipped)} skipped"
                      + ("" if not reasons else " (" + "; ".join(f"{n} {r}" for r, n in sorted(reasons.items())) + ")"))
    if any(name == "--help" for name, _ in groups) and help_width_offenders:
        all_failures += help_width_offenders
        lines = "1 line does" if len(help_width_offenders) == 1 else f"{len(help_width_offenders)} lines do"
        counts.append(f"--help width: {lines} not fit {HELP_WIDTH} columns")
    for failure in all_failures:
        print("FAIL " + failure, file=sys.stderr)
    for line in counts:
        print("check-docs: " + line)
    if all_failures:
        print(f"check-docs: {len(all_failures)} failed", file=sys.stderr)
        sys.exit(1)


try:
    main()
finally:
    shutil.rmtree(cache, ignore_errors=True)
