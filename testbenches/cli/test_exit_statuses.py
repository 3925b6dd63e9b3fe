#!/usr/bin/env python3
"""Command-line mistakes exit 2 with a line naming the option, as every other bad input does
(README, Exit status); --help and --version exit 0. CLI11 alone exits 104-114 for these.
Exits non-zero naming every failed check."""
import os
import subprocess
import sys

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
CASES = [
    ("an unknown option", ["run", "--no-such-option"], 2, "--no-such-option"),
    ("an option missing its argument", ["run", "--platform"], 2, "--platform"),
    ("an argument of the wrong type", ["run", "--gdb-core", "abc"], 2, "--gdb-core"),
    ("a value out of its range", ["run", "--timeline-max-events", "0"], 2, "--timeline-max-events"),
    ("an unknown subcommand's option", ["serve", "--bogus"], 2, "--bogus"),
    ("--help", ["run", "--help"], 0, "--workload"),
    ("--version", ["--version"], 0, "ssdvp "),
]
failures = []
for what, args, want, words in CASES:
    p = subprocess.run([BINARY] + args, capture_output=True, text=True, timeout=60)
    out = p.stdout + p.stderr
    if p.returncode != want or words not in out:
        failures.append(f"{what} ({' '.join(args)}): exit {p.returncode} (want {want}), output {out.strip()[-200:]!r}")
    else:
        print(f"{what}: exit {p.returncode}")
for f in failures:
    print("FAIL:", f)
print(f"{len(CASES) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
