#!/usr/bin/env python3
"""Plots measured write amplification against over-provisioning from a sweep's results store
(scripts/sweep.py with --grid ftl.op=... and optionally --grid ftl.gc_policy=...), with
Desnoyers' analytic model for uniform random writes (the curve the tests hold the FTL to).
Refuses (exit 1, naming them) runs that failed, did not complete or had integrity mismatches:
a WAF from such a run is not a measurement.

  scripts/plot_waf.py sweep-out/ docs/results/waf-vs-op.png
"""
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import pandas as pd  # noqa: E402


def lambert_w0(x):
    w = -0.5
    for _ in range(100):
        e = math.exp(w)
        w -= (w * e - x) / (e * (w + 1))
    return w


def model_waf(alpha):
    x0 = -lambert_w0(-alpha * math.exp(-alpha)) / alpha
    return 1.0 / (1.0 - x0)


def alpha_of(row):
    """physical/logical space that can hold data: the free superblocks GC keeps are excluded."""
    dies = int(row["config.nand.channels"]) * int(row["config.nand.ways"])
    sb = int(row["config.nand.planes"]) * int(row["config.nand.mlc.pages_per_block"]) * int(row["config.nand.page_bytes"]) // 4096
    pool = dies * ((int(row["config.ftl.gc_low_blocks"]) + int(row["config.ftl.gc_high_blocks"])) / 2 + 1) * sb
    return (row["ftl.physical_sectors"] - pool) / row["ftl.logical_sectors"]


def unusable(rows):
    """Names of the runs whose figures cannot be used, with why."""
    bad = []
    for _, r in rows.iterrows():
        if r["status"] != "ok":
            bad.append(f"{r['label']}: {r['status']} ({str(r['error']).splitlines()[-1:] or ''})")
        elif not bool(r.get("completed", False)) or r.get("completed") != r.get("completed"):
            bad.append(f"{r['label']}: did not complete")
        elif r.get("integrity.mismatches", 0):
            bad.append(f"{r['label']}: {int(r['integrity.mismatches'])} integrity mismatches")
    return bad


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    folder, png = Path(sys.argv[1]), sys.argv[2]
    store = folder / "results.parquet"
    if not store.exists():
        sys.stderr.write(f"plot_waf: {store}: no results store (run scripts/sweep.py --out {folder})\n")
        return 2
    rows = pd.read_parquet(store)
    rows = rows[rows["config.ftl.op"].notna()] if "config.ftl.op" in rows else rows.iloc[0:0]
    if rows.empty:
        sys.stderr.write(f"plot_waf: {store}: no runs with ftl.op\n")
        return 2
    bad = unusable(rows)
    if bad:
        sys.stderr.write("plot_waf: refusing runs that are not measurements:\n  " + "\n  ".join(bad) + "\n")
        return 1
    series = {}
    for _, r in rows.iterrows():
        series.setdefault(r["config.ftl.gc_policy"], []).append((float(r["config.ftl.op"]), float(r["waf"]), alpha_of(r)))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    model = []
    for policy, pts in sorted(series.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=f"measured, {policy}")
        model = pts
    ax.plot([p[0] for p in model], [model_waf(p[2]) for p in model], "k--", label="model (Desnoyers, FIFO / large-block greedy)")
    ax.set_xlabel("over-provisioning (ftl.op)")
    ax.set_ylabel("write amplification")
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_yticks([1.5, 2, 3, 4, 6, 8])
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title("Uniform random 4 KiB writes at steady state")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    for policy, pts in sorted(series.items()):
        for op, waf, alpha in pts:
            print(f"{policy:8s} op={op:.2f} waf={waf:.3f} model={model_waf(alpha):.3f} ({100 * (waf / model_waf(alpha) - 1):+.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
