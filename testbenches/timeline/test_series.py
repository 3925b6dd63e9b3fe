#!/usr/bin/env python3
"""run.json's series (sim.series_interval_ms; models/host/host_series.h, platforms/device_series.h)
against the run's totals: per operation the requests and bytes of the intervals sum to the
run's, the last interval's WAF is the run's, GC sectors and erases of the intervals sum to the
FTL's counts of the measured run, every column has one value per interval, and interval
latencies lie within the run's min and max: no interval's p50 or p99 is above the run's
maximum (run.json ops.OP.latency_us.max) or below the run's minimum. run.json gives no minimum,
so the run's is taken from latency_OP.csv (its histogram): the low edge of the first non-empty
bucket, at or below the fastest request; an interval's percentiles are clamped to that
interval's own requests, which are requests of the run, so none may be lower.

Usage: test_series.py  (SSDVP_BINARY: the ssdvp binary)
"""
import csv
import json
import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from small_platform import SMALL, report  # noqa: E402



def run_min_us(run_dir, op):
    """The run's minimum latency of op in us, as far as latency_OP.csv shows it: the low edge of
    its first non-empty bucket (the bucket holding the fastest request); None without the file."""
    path = pathlib.Path(run_dir) / f"latency_{op}.csv"
    if not path.exists():
        return None
    with path.open() as f:
        first = next(csv.DictReader(f), None)
    return None if first is None else int(first["low_ns"]) / 1e3


def check(result, label, run_dir):
    failures = []
    s = result["series"]
    n = len(s["t_ms"])
    if n == 0:
        return [f"{label}: no intervals"]
    for op, cols in s["ops"].items():
        for name, col in cols.items():
            if len(col) != n:
                failures.append(f"{label}: ops.{op}.{name} has {len(col)} values for {n} intervals")
        total = result["ops"][op]
        if sum(cols["requests"]) != total["requests"] or sum(cols["bytes"]) != total["bytes"]:
            failures.append(f"{label}: {op} intervals sum to {sum(cols['requests'])} requests / {sum(cols['bytes'])} "
                            f"bytes, the run {total['requests']} / {total['bytes']}")
        lat = total["latency_us"]
        low = run_min_us(run_dir, op)
        if low is None:
            failures.append(f"{label}: no latency_{op}.csv (the run's minimum {op} latency) in {run_dir}")
        for p in ("p50_us", "p99_us"):
            vals = [v for v in cols[p] if v is not None]
            if vals and not lat["max"] * 1.02 >= max(vals):
                failures.append(f"{label}: {op} {p} up to {max(vals)} beyond the run's max {lat['max']}")
            below = [(i, v) for i, v in enumerate(cols[p]) if v is not None and low is not None and v < low - 1e-6]
            if below:
                i, v = min(below, key=lambda x: x[1])
                failures.append(f"{label}: {op} {p} of {len(below)} intervals below the run's minimum {low} us "
                                f"(interval {i}: {v} us)")
    for op in result["ops"]:
        if op not in s["ops"]:
            failures.append(f"{label}: no series for {op}")
    d = s["device"]
    for name in ("waf", "free_superblocks", "gc_runs", "gc_prog_sectors", "erases", "wbuf_used"):
        if len(d[name]) != n:
            failures.append(f"{label}: device.{name} has {len(d[name])} values for {n} intervals")
    if result["ops"].get("write") and abs(d["waf"][-1] - result["waf"]) > 1e-3:
        failures.append(f"{label}: last interval's WAF {d['waf'][-1]}, the run's {result['waf']}")
    ftl = result["ftl"]
    for col, key in (("gc_prog_sectors", "gc_copied_sectors"), ("gc_runs", "gc_runs"), ("erases", "erases")):
        if sum(d[col]) != ftl[key]:
            failures.append(f"{label}: device.{col} sums to {sum(d[col])}, ftl.{key} {ftl[key]}")
    if not all(0 <= u <= d["wbuf_entries"] for u in d["wbuf_used"]) or d["wbuf_entries"] <= 0:
        failures.append(f"{label}: write-buffer fill outside 0..{d['wbuf_entries']}")
    return failures


def main():
    binary = os.environ.get("SSDVP_BINARY") or sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory(prefix="ssdvp-series-") as tmp:
        for label, workload in (("randwrite", "fio:rw=randwrite,bs=4k,iodepth=32,io=20000"),
                                ("randrw", "fio:rw=randrw,rwmixread=70,bs=16k,iodepth=8,io=8000")):
            out = pathlib.Path(tmp) / label
            cmd = [binary, "run", "-q", *SMALL, "-s", "sim.series_interval_ms=3", "-w", workload, "-o", str(out)]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                failures.append(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr}")
                continue
            result = json.loads((out / "run.json").read_text())
            failures += check(result, label, out)
            if label == "randwrite" and sum(result["series"]["device"]["gc_prog_sectors"]) == 0:
                failures.append("randwrite on a filled drive: no GC in any interval")
        # Off: no series.
        out = pathlib.Path(tmp) / "off"
        subprocess.run([binary, "run", "-q", *SMALL, "-w", "fio:rw=randread,bs=4k,io=500", "-o", str(out)], check=True,
                       capture_output=True)
        if "series" in json.loads((out / "run.json").read_text()):
            failures.append("sim.series_interval_ms = 0 wrote a series")
    return report("series checks", failures)


if __name__ == "__main__":
    sys.exit(main())
