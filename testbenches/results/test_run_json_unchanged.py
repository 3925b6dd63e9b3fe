#!/usr/bin/env python3
"""run.json stays the same, figure for figure, for the same run (results format 1).

A handful of runs, each exercising blocks whose sections a change to how run.json is assembled
could lose or alter: the default platform, the ring write buffer, LAPT on the mixed SLC/MLC
device, decision-tree read-ahead, a power cut and its recovery, two firmware cores with two
host queues, the RTL channel and the firmware on the ISS. Each run's run.json is compared with
the one in golden/NAME.json, written by an earlier build, after dropping what depends on the
host machine or names the run's folders (wall times, RSS, host seconds, MIPS, paths) or an
address in the firmware image (the ISS cores' pc_at_end); key order does not matter (JSON
objects).

What must not move on a refactor or a speed change is compared exactly: every figure of the
native runs (their firmware time is the cost table's, so a refactor moves none of it), and of
the ISS run what the workload and configuration fix (integrity, request, command and sector
counts, the configuration, the drive's geometry). The ISS run's figures that follow the
firmware's instruction counts (its timing, and what timing decides: GC and map counters,
latencies, utilisation) are in golden/iss.timing.json, compared with the tolerances of
ISS_TIMING below: the instruction counts within 15 %, the run's headline figures (simulated time,
IOPS, WAF, flash and GC counts, mean latencies) within 10 %, the rest present with no bound
(their moves are listed). No key may be added or lost in either file.

  test_run_json_unchanged.py [BINARY]            compare (ctest results.run_json_unchanged)
  test_run_json_unchanged.py [BINARY] --write    write golden/ anew (after a change that is
                                                 meant to move figures) and print every key
                                                 that moved and by how much, for the commit
                                                 message
  test_run_json_unchanged.py --self-test         the comparison on the goldens with figures
                                                 moved on purpose (ctest results.golden_checks)
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
ROOT = HERE.parents[1]
SMALL = ["nand.channels=4", "nand.ways=2", "nand.planes=2", "nand.blocks_per_plane=64",
         "nand.mlc.pages_per_block=64", "dram.size_mib=256"]
MIX = "fio:rw=randrw,rwmixread=50,bsrange=4k-32k,iodepth=16,io=8000,fsync=64,trim_percent=5"

# name: (platform file or None, settings, workload, extra arguments, {golden name: run.json to compare})
RUNS = {
    "default": (None, [], "fio:rw=randrw,bs=4k,iodepth=32,io=20000,rwmixread=70", [], {"default": "run.json"}),
    "ring": (None, SMALL + ["ftl.write_buffer=ring"], MIX, [], {"ring": "run.json"}),
    "lapt": ("platforms/lapt-slc-mlc.toml", [], "fio:rw=randrw,bs=4k,iodepth=8,io=8000,rwmixread=40", [], {"lapt": "run.json"}),
    "readahead": (None, SMALL + ["ftl.readahead=dtree-lru"], "rr:ratio=20,bs=4k,requests=8000", [],
                  {"readahead": "run.json"}),
    "power-cut": (None, SMALL, MIX, ["--power-cut", "ops:5000"],
                  {"power-cut-before": "before-cut/run.json", "power-cut-after": "run.json"}),
    "multicore": (None, SMALL + ["firmware.cores=2", "host.queues=2"],
                  "fio:rw=randrw,bs=4k,iodepth=8,numjobs=2,io=4000,fsync=32", [], {"multicore": "run.json"}),
    "rtl": (None, SMALL + ["channel.model=rtl"], "fio:rw=randrw,bs=4k,iodepth=8,io=3000", [], {"rtl": "run.json"}),
    "iss": (None, SMALL + ["firmware.mode=iss", "ftl.mapping=dftl"], "fio:rw=randrw,bs=4k,iodepth=8,io=2000", [],
            {"iss": "run.json"}),
}
# Runs whose timing follows the firmware's instruction counts: their golden is split in two.
TIMED_BY_INSTRUCTIONS = {"iss"}

# The ISS run's figures that its timing decides (golden/iss.timing.json), each with its bound: a
# relative tolerance, or None (present, moves listed, no bound).  The first pattern that matches
# a path counts.  Bounds chosen from the ISS golden's history: over its 34 rewrites a commit moved
# the instruction count by at most 10.6 % and the headline figures by at most 3.7 %, except the
# one that changed the host stack's default (write latency 48 %), a change of the model.
ISS_TIMING = [
    (r"^firmware\.cores\[\d+\]\.(instructions|passes|quanta|mmio_accesses|wakeups|syncs_skipped)$", 0.15),
    (r"^(sim_time_s|sim_time_total_s|total\.(iops|mbps)|ops\.\w+\.(iops|mbps)|waf|nand\.waf|flash_operations|"
     r"nand\.programmed_sectors|ftl\.(flash_program_sectors|flash_reads|gc_copied_sectors|gc_runs|erases)|"
     r"ops\.\w+\.latency_us\.mean)$", 0.10),
    (r"^firmware\.cores\[\d+\]\.(busy_s|busy_share|idle_s)$|latency_us|\.mbps$|^utilisation\.|^sim_kernel\.|"
     r"^ops\.\w+\.waited_for\.|^mapping\.(read_lookups|reads_waited_for|tp_|translation_gc|updates)|^wear\.|"
     r"^ftl\.(gc_index_picks|padding_sectors|wear_levelling\.superblock_erases|write_buffer_read_hits|"
     r"firmware_dram_bytes)|^nand\.(compact|lean|wide)_blocks$|^write_buffer\.(fill_at_insert|read_hit)|"
     r"^host_stack\.busiest", None),
]


def machine_free(j):
    """j without what depends on the host machine or names the run's folders."""
    if isinstance(j, dict):
        out = {}
        for k, v in j.items():
            # pc_at_end: an address in the firmware image, which moves with any change of its code
            if ("wall" in k or k in ("host_peak_rss_mib", "drive_state", "host_seconds_executing",
                                     "mips_while_executing", "output_dir", "image", "pc_at_end")):
                continue
            out[k] = machine_free(v)
        return out
    if isinstance(j, list):
        return [machine_free(v) for v in j]
    return j


def run(binary, name, tmp):
    """Runs RUNS[name]; its run.json documents by golden name, machine figures dropped."""
    platform, sets, workload, extra, files = RUNS[name]
    out = Path(tmp) / name
    cmd = [binary, "run", "-q", "-o", str(out), "-w", workload] + extra
    if platform:
        cmd += ["--platform", str(ROOT / platform)]
    for s in sets + ["sim.progress=false"]:
        cmd += ["-s", s]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: {name}: {' '.join(cmd)} exited {p.returncode}: {p.stderr[-2000:]}")
    return {golden: machine_free(json.loads((out / which).read_text())) for golden, which in files.items()}


def leaves(j, path=""):
    """Every leaf of a document as (path, value); list items as path[i]."""
    if isinstance(j, dict):
        for k, v in j.items():
            yield from leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(j, list):
        for i, v in enumerate(j):
            yield from leaves(v, f"{path}[{i}]")
    else:
        yield path, j


def timing_bound(path):
    """(is it a timing figure of an instruction-timed run, its relative bound or None)."""
    for pattern, bound in ISS_TIMING:
        if re.search(pattern, path):
            return True, bound
    return False, None


def split_timing(doc):
    """An instruction-timed run's document as (what must not move, its timing figures), the
    second flat: {path: value}."""
    timing = {p: v for p, v in leaves(doc) if timing_bound(p)[0]}

    def without(j, path=""):
        if isinstance(j, dict):
            return {k: without(v, f"{path}.{k}" if path else k) for k, v in j.items()
                    if (f"{path}.{k}" if path else k) not in timing}
        if isinstance(j, list):
            return [without(v, f"{path}[{i}]") for i, v in enumerate(j) if f"{path}[{i}]" not in timing]
        return j
    return without(doc), timing


def timing_differences(want, got):
    """(failures, moves within bounds) between two flat timing documents."""
    failures, moves = [], []
    for k in sorted(set(want) | set(got)):
        if k not in got:
            failures.append(f"{k}: lost (was {json.dumps(want[k])[:80]})")
            continue
        if k not in want:
            failures.append(f"{k}: added ({json.dumps(got[k])[:80]})")
            continue
        a, b = want[k], got[k]
        if a == b:
            continue
        bound = timing_bound(k)[1]
        numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
        rel = abs(b - a) / max(abs(a), abs(b)) if numeric and max(abs(a), abs(b)) > 0 else None
        line = f"{k}: {json.dumps(a)[:40]} -> {json.dumps(b)[:40]}" + (f" ({100 * (b - a) / a:+.1f} %)" if numeric and a else "")
        if bound is not None and (rel is None or rel > bound):
            failures.append(f"{line}, beyond the {100 * bound:.0f} % it may move")
        else:
            moves.append(line)
    return failures, moves


def moved(want, got, path=""):
    """Every key that moved between two documents, with how much (for --write)."""
    found = []
    for d in differences(want, got, path):
        m = re.match(r"^(.*): (-?[\d.e+-]+) -> (-?[\d.e+-]+)$", d)
        if m:
            try:
                a, b = float(m.group(2)), float(m.group(3))
                if a:
                    d += f" ({100 * (b - a) / a:+.1f} %)"
            except ValueError:
                pass
        found.append(d)
    return found


def differences(want, got, path=""):
    """Every key added, lost or changed between two run.json documents."""
    if isinstance(want, dict) and isinstance(got, dict):
        found = []
        for k in sorted(set(want) | set(got)):
            where = f"{path}.{k}" if path else k
            if k not in got:
                found.append(f"{where}: lost (was {json.dumps(want[k])[:80]})")
            elif k not in want:
                found.append(f"{where}: added ({json.dumps(got[k])[:80]})")
            else:
                found += differences(want[k], got[k], where)
        return found
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [d for i, (a, b) in enumerate(zip(want, got)) for d in differences(a, b, f"{path}[{i}]")]
    same = want == got or (isinstance(want, float) and isinstance(got, float) and math.isnan(want) and math.isnan(got))
    return [] if same else [f"{path}: {json.dumps(want)[:80]} -> {json.dumps(got)[:80]}"]


def self_test():
    """The comparison itself, on the goldens with one figure moved at a time (ctest
    results.golden_checks): a native figure or an ISS invariant that moves at all fails; an
    ISS instruction count fails past 15 % and is listed as a move within it; a timing figure
    with no bound is listed; a key lost from either file fails."""
    failures, passed = [], 0
    native = json.loads((GOLDEN / "default.json").read_text())
    iss = json.loads((GOLDEN / "iss.json").read_text())
    timing = json.loads((GOLDEN / "iss.timing.json").read_text())
    instr = next(k for k in timing if k.endswith(".instructions"))
    latency = next(k for k in timing if k.endswith("latency_us.p99") and timing_bound(k)[1] is None)

    def moved_native(doc):
        doc = json.loads(json.dumps(doc))
        doc["ftl"]["gc_copied_sectors"] += 1
        return doc

    def moved_iss(doc):
        doc = json.loads(json.dumps(doc))
        doc["integrity"]["reads_checked"] -= 1
        return doc

    def scaled(key, factor):
        doc = dict(timing)
        doc[key] = timing[key] * factor
        return doc

    def without(key):
        return {k: v for k, v in timing.items() if k != key}

    cases = [
        ("a native figure moved by one", lambda: (differences(native, moved_native(native)), []), True),
        ("an ISS invariant moved by one", lambda: (differences(iss, moved_iss(iss)), []), True),
        ("the ISS instruction count +20 %", lambda: timing_differences(timing, scaled(instr, 1.2)), True),
        ("the ISS instruction count -5 %", lambda: timing_differences(timing, scaled(instr, 0.95)), False),
        ("an unbounded ISS latency x3", lambda: timing_differences(timing, scaled(latency, 3.0)), False),
        ("an ISS timing key lost", lambda: timing_differences(timing, without(instr)), True),
    ]
    for what, compare, must_fail in cases:
        found, moves = compare()
        ok = bool(found) == must_fail and (must_fail or moves)
        print(f"{what}: {'fails' if found else 'passes'}: {(found or moves)[:1]}")
        if ok:
            passed += 1
        else:
            failures.append(f"{what}: {'failed' if found else 'passed'}, should have {'failed' if must_fail else 'passed'}")
    for f in failures:
        print("FAIL:", f)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
    args = [a for a in sys.argv[1:] if a != "--write"]
    binary = args[0] if args else os.environ.get("SSDVP_BINARY")
    if not binary:
        raise SystemExit("usage: test_run_json_unchanged.py BINARY [--write] (or SSDVP_BINARY)")
    write = "--write" in sys.argv
    failures = []
    allowed_moves = []
    with tempfile.TemporaryDirectory(prefix="ssdvp-golden-") as tmp:
        for name in RUNS:
            for golden, got in run(binary, name, tmp).items():
                files = {golden: got}
                if name in TIMED_BY_INSTRUCTIONS:
                    files[golden], files[f"{golden}.timing"] = split_timing(got)
                for gname, doc in files.items():
                    path = GOLDEN / f"{gname}.json"
                    old = json.loads(path.read_text()) if path.exists() else None
                    if write:
                        GOLDEN.mkdir(exist_ok=True)
                        path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
                        changes = moved(old, doc) if old is not None else ["(new file)"]
                        print(f"wrote {path.relative_to(ROOT)}: {len(changes)} keys moved")
                        for c in changes:
                            print(f"  {c}")
                        continue
                    if old is None:
                        failures.append(f"{gname}: no golden/{gname}.json (write it with --write)")
                        continue
                    if gname.endswith(".timing"):
                        found, moves = timing_differences(old, doc)
                        allowed_moves += [f"{gname}: {m}" for m in moves]
                    else:
                        found = differences(old, doc)
                    failures += [f"{gname}: {d}" for d in found[:20]]
                    if len(found) > 20:
                        failures.append(f"{gname}: ... and {len(found) - 20} more")
    if allowed_moves:
        print(f"moved within their bounds ({len(allowed_moves)}):")
        for m in allowed_moves:
            print(f"  {m}")
    for f in failures:
        print("FAIL:", f)
    print("run.json unchanged:", "FAILED" if failures else f"passed ({len(RUNS)} runs)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
