#!/usr/bin/env python3
"""run.json stays the same, figure for figure, for the same run (results format 1).

A handful of runs, each exercising blocks whose sections a change to how run.json is assembled
could lose or alter: the default platform, the ring write buffer, LAPT on the mixed SLC/MLC
device, decision-tree read-ahead, a power cut and its recovery, two firmware cores with two
host queues, the RTL channel and the firmware on the ISS. Each run's run.json is compared with
the one in golden/NAME.json, written by an earlier build, after dropping what depends on the
host machine or names the run's folders (wall times, RSS, host seconds, MIPS, paths) or an
address in the firmware image (the ISS cores' pc_at_end); key order
does not matter (JSON objects). Every other key must be there with the same value, and no key
may be added or lost.

  test_run_json_unchanged.py [BINARY]            compare (ctest results.run_json_unchanged)
  test_run_json_unchanged.py [BINARY] --write    write golden/ anew (after a change that is
                                                 meant to move figures; say why in the commit)
"""
import json
import math
import os
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


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    binary = args[0] if args else os.environ.get("SSDVP_BINARY")
    if not binary:
        raise SystemExit("usage: test_run_json_unchanged.py BINARY [--write] (or SSDVP_BINARY)")
    write = "--write" in sys.argv
    failures = []
    with tempfile.TemporaryDirectory(prefix="ssdvp-golden-") as tmp:
        for name in RUNS:
            for golden, got in run(binary, name, tmp).items():
                path = GOLDEN / f"{golden}.json"
                if write:
                    GOLDEN.mkdir(exist_ok=True)
                    path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
                    print(f"wrote {path.relative_to(ROOT)}")
                    continue
                if not path.exists():
                    failures.append(f"{golden}: no golden/{golden}.json (write it with --write)")
                    continue
                found = differences(json.loads(path.read_text()), got)
                failures += [f"{golden}: {d}" for d in found[:20]]
                if len(found) > 20:
                    failures.append(f"{golden}: ... and {len(found) - 20} more")
    for f in failures:
        print("FAIL:", f)
    print("run.json unchanged:", "FAILED" if failures else f"passed ({len(RUNS)} runs)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
