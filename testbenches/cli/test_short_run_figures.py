#!/usr/bin/env python3
"""Figures that mislead on short runs are said for what they are (issue 73, item 4): no WAF on a run
without writes (it printed WAF 0.000), a note on a WAF below 1 (the write buffer absorbed
overwrites) and on one without GC (no steady state), each phase and each job of a composite
workload on its own lines over its own time (a phase's IOPS was divided over the whole run), and
no MB/s for a zone reset or a flush. Exits non-zero naming every failed check."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
failures = []


def run(spec, *sets):
    out = Path(tempfile.mkdtemp(prefix="short-run-"))
    args = [BINARY, "run", "--no-precondition", "-w", spec, "-o", str(out)]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        failures.append(f"{spec}: exit {p.returncode}: {p.stderr[-300:]}")
        return p.stdout, {}
    return p.stdout, json.loads((out / "run.json").read_text())


def expect(what, ok, detail):
    print(f"{'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures.append(f"{what}: {detail}")


summary, _ = run("fio:rw=randread,io=200")
expect("a read-only run has no WAF", "WAF: none, no host writes" in summary and "WAF 0.000" not in summary, summary)
summary, r = run("fio:rw=randwrite,bs=4k,size=64k,io=2000")
expect("16 sectors rewritten 2,000 times: WAF below 1 is explained",
       r and r["waf"] < 1 and "note: WAF below 1: writes overwritten while in the write buffer" in summary, summary)
expect("... and no GC ran: said", "note: no GC ran in the measured run" in summary, summary)
# Two phases at different speeds: each over its own span.
summary, r = run("fio:rw=randread,bs=4k,iodepth=1,io=2000;fio:rw=randread,bs=4k,iodepth=1,io=2000,thinktime=100")
parts = r.get("parts", [])
expect("two phases, two parts", len(parts) == 2 and parts[0]["name"].startswith("phase 1: fio randread")
       and parts[1]["name"].startswith("phase 2: fio randread"), parts)
if len(parts) == 2:
    for p in parts:
        reads = p["ops"]["read"]
        expect(f"{p['name'][:7]}: its IOPS over its own {p['time_s'] * 1e3:.2f} ms",
               abs(reads["iops"] - reads["requests"] / p["time_s"]) < 1e-6 * reads["iops"], p)
    expect("the phases' requests add up to the run's", sum(p["ops"]["read"]["requests"] for p in parts)
           == r["ops"]["read"]["requests"], parts)
    expect("the second phase starts where the first ends", abs(parts[1]["start_s"] - parts[0]["time_s"]) < 1e-4, parts)
    expect("the thinking phase is slower than the run's figure says of it",
           parts[1]["ops"]["read"]["iops"] < r["ops"]["read"]["iops"] < parts[0]["ops"]["read"]["iops"], parts)
    expect("the summary shows each phase", summary.count("phase 1: fio randread") == 1 and "phase 2: fio randread" in summary,
           summary)
# A zoned run's zone resets and the flushes: no MB/s.
summary, r = run("fio:rw=randwrite,zonemode=zbd,bs=64k,iodepth=4,io=24000,fsync=64", "device.interface=zns",
                 "nand.blocks_per_plane=16")
rows = {line.split()[0]: line.split() for line in summary.splitlines() if line.strip().split()[:1] in (["zone_reset"], ["flush"], ["write"])}
expect("zone_reset and flush rows show no MB/s", "zone_reset" in rows and "flush" in rows
       and rows["zone_reset"][3] == "-" and rows["flush"][3] == "-" and rows["write"][3] != "-", rows)
for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
