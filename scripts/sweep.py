#!/usr/bin/env python3
"""Runs ssdvp over a parameter grid, one process per point (SystemC elaborates once per
process), several at a time, and writes one CSV row per point with the main figures.

  scripts/sweep.py --grid ftl.op=0.07,0.15,0.28 --grid ftl.gc_policy=greedy,fifo \\
      --set nand.blocks_per_plane=256 --workload fio:rw=randwrite,bs=4k,iodepth=32,io=200000 \\
      --out sweep-out

Each point's run.json and latency CSVs stay in OUT/<point>/; OUT/sweep.csv has the rows.
"""
import argparse
import concurrent.futures
import csv
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BINARY = ROOT / "build" / "platforms" / "ssdvp"


def parse_grid(items):
    grid = []
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not values:
            sys.exit(f"sweep: --grid {item}: expected key=v1,v2,...")
        grid.append((key, values.split(",")))
    return grid


def point_name(point):
    return "_".join(f"{k.split('.')[-1]}-{v}" for k, v in point).replace("/", "-") or "base"


def run_point(binary, platform, workload, sets, point, out):
    folder = out / point_name(point)
    cmd = [str(binary), "run", "--quiet", "--out", str(folder)]
    if platform:
        cmd += ["--platform", platform]
    if workload:
        cmd += ["--workload", workload]
    for s in sets + [f"{k}={v}" for k, v in point] + ["sim.progress=false"]:
        cmd += ["--set", s]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if not (folder / "run.json").exists():
        return point, None, proc.stderr.strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
    return point, json.loads((folder / "run.json").read_text()), []


def row_of(point, r):
    row = {k: v for k, v in point}
    row.update(
        completed=r["completed"],
        sim_time_s=r["sim_time_s"],
        total_iops=r["total"]["iops"],
        total_mbps=r["total"]["mbps"],
        waf=r["waf"],
        gc_runs=r["ftl"]["gc_runs"],
        integrity_mismatches=r.get("integrity", {}).get("mismatches", ""),
        host_requests_per_wall_s=r["host_requests_per_wall_s"],
    )
    for op in ("read", "write"):
        lat = r["ops"].get(op, {}).get("latency_us", {})
        for p in ("mean", "p50", "p99", "p99.9", "max"):
            row[f"{op}_{p}_us"] = lat.get(p, "")
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grid", action="append", default=[], help="key=v1,v2,... (repeatable)")
    ap.add_argument("--set", action="append", default=[], help="key=value for every point")
    ap.add_argument("--platform", default="")
    ap.add_argument("--workload", default="")
    ap.add_argument("--out", default="sweep-out")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--binary", default=str(DEFAULT_BINARY))
    args = ap.parse_args()

    grid = parse_grid(args.grid)
    points = [list(zip([k for k, _ in grid], combo)) for combo in itertools.product(*[v for _, v in grid])]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, failed = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_point, args.binary, args.platform, args.workload, args.set, p, out) for p in points]
        for f in concurrent.futures.as_completed(futures):
            point, result, err = f.result()
            name = point_name(point)
            if result is None:
                failed += 1
                print(f"{name}: FAILED {' '.join(err)}", file=sys.stderr)
                continue
            rows.append(row_of(point, result))
            print(f"{name}: {result['total']['iops']:.0f} IOPS, WAF {result['waf']:.3f}", file=sys.stderr)
    if rows:
        keys = list(rows[0].keys())
        rows.sort(key=lambda r: [str(r[k]) for k, _ in grid])
        with open(out / "sweep.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            w.writerows(rows)
        print(out / "sweep.csv")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
