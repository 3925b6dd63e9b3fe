#!/usr/bin/env python3
"""Names a user types: `ssdvp platforms` lists the shipped platforms, `-p NAME` takes a bare name,
and a mistyped key, option, command, platform or fio option gets a "did you mean" (exit 2); fio's
size suffixes (4KiB, 4KB) and yes/no flags are taken; a binary file given as a trace is named as
binary; what a choice needs of other keys becomes their default (said on the summary's implied:
line) and every conflict comes in one error. Exits non-zero naming every failed check."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
PLATFORMS = Path(__file__).resolve().parents[2] / "platforms"
TINY = ["--no-precondition", "--set", "nand.blocks_per_plane=64", "-q"]

failures = []


def check(what, args, want, words, absent=None):
    p = subprocess.run([BINARY] + args, capture_output=True, text=True, timeout=120)
    out = p.stdout + p.stderr
    wrong = [w for w in ([words] if isinstance(words, str) else words) if w not in out]
    if p.returncode != want or wrong or (absent and absent in out):
        failures.append(f"{what} ({' '.join(args)}): exit {p.returncode} (want {want}), missing {wrong}, "
                        f"output {out.strip()[-400:]!r}")
    else:
        print(f"{what}: exit {p.returncode}")
    return out


listing = check("ssdvp platforms", ["platforms"], 0, "run one with: ssdvp run -p NAME")
for toml in sorted(PLATFORMS.glob("*.toml")):
    if not any(line.split()[:1] == [toml.stem] for line in listing.splitlines()):
        failures.append(f"ssdvp platforms does not list {toml.stem}")
# A bare name loads the shipped file: the error is then the workload's, not "could not be opened".
check("-p a shipped name", ["run", "-p", "ptsd-board", "-w", "fio:rw=bogus"], 2, "unknown pattern",
      absent="could not be opened")
check("-p NAME.toml", ["run", "-p", "ptsd-board.toml", "-w", "fio:rw=bogus"], 2, "unknown pattern")
check("-p a near name", ["run", "-p", "ocsd"], 2, ["-p ocsd: no such file and no shipped platform", "did you mean 'ocssd'?"])
check("-p a missing path", ["run", "-p", "./nowhere/x.toml"], 2, "-p ./nowhere/x.toml: no such file")
check("a near key", ["run", "--set", "ftl.gc_policyy=greedy"], 2, "did you mean 'ftl.gc_policy'?")
check("a key without its section", ["run", "--set", "gc_policy=greedy"], 2, "did you mean 'ftl.gc_policy'?")
check("a near choice", ["run", "--set", "ftl.gc_policy=greedyy"], 2, "did you mean 'greedy'?")
check("a near option", ["run", "--workloda", "x"], 2, "--workloda: did you mean '--workload'?")
check("a near command", ["platfroms"], 2, "platfroms: did you mean 'platforms'?")
check("a near fio option", ["run", "-w", "fio:rw=randread,iodeth=4"], 2, "unknown option 'iodeth'; did you mean 'iodepth'?")
check("a near fio pattern", ["run", "-w", "fio:rw=randomread"], 2, "did you mean 'randread'?")
check("a flag value neither set nor unset", ["run", "-w", "fio:rw=randread,scramble=maybe"], 2,
      "scramble=maybe: must be 1, true, yes or on (set), or 0, false, no or off (not set)")
# fio's suffixes and yes/no: a run that takes them (its summary echoes the bytes).
out = check("bs=4KiB and scramble=yes", ["run", "-w", "fio:rw=randread,bs=8KiB,size=16MiB,io=64,scramble=yes"] + TINY
            + ["-o", tempfile.mkdtemp(prefix="near-names-")], 0, [])
# A choice's needs become defaults, said on the summary; conflicts all in one error.
check("a choice's needs as defaults", ["run", "--set", "device.interface=ocssd", "--no-precondition",
                                       "-w", "fio:rw=randwrite,io=500", "-o", tempfile.mkdtemp(prefix="implied-")], 0,
      ["implied: host.ftl = pblk (device.interface = ocssd (--set device.interface)); ftl.write_buffer = ring"])
check("every conflict in one error", ["run", "--set", "device.interface=ocssd", "--set", "precondition.mode=functional",
                                      "--set", "ftl.write_buffer=slots"], 2,
      ["--set ftl.write_buffer: ftl.write_buffer = slots conflicts with host.ftl = pblk (implied)",
       "--set precondition.mode: precondition.mode = functional conflicts with host.ftl = pblk (implied)"])
with tempfile.TemporaryDirectory() as tmp:
    binary = Path(tmp) / "a.trace"
    binary.write_bytes(Path(BINARY).read_bytes()[:4096])
    check("a binary file as a trace", ["run", "-w", str(binary)], 2, f"{binary}:1: a binary file, not a text trace")
for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
