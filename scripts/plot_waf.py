#!/usr/bin/python3
"""Plots measured write amplification against over-provisioning from a sweep (scripts/sweep.py
with --grid ftl.op=... and optionally --grid ftl.gc_policy=...), with Desnoyers' analytic
model for uniform random writes (the curve the tests hold the FTL to).

  scripts/plot_waf.py sweep-out/ docs/results/waf-vs-op.png
"""
import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402


def lambert_w0(x):
    w = -0.5
    for _ in range(100):
        e = math.exp(w)
        w -= (w * e - x) / (e * (w + 1))
    return w


def model_waf(alpha):
    x0 = -lambert_w0(-alpha * math.exp(-alpha)) / alpha
    return 1.0 / (1.0 - x0)


def alpha_of(run):
    """physical/logical space that can hold data: the free superblocks GC keeps are excluded."""
    c = run["config"]
    dies = int(c["nand.channels"]) * int(c["nand.ways"])
    sb = int(c["nand.planes"]) * int(c["nand.mlc.pages_per_block"]) * int(c["nand.page_bytes"]) // 4096
    pool = dies * ((int(c["ftl.gc_low_blocks"]) + int(c["ftl.gc_high_blocks"])) / 2 + 1) * sb
    return (run["ftl"]["physical_sectors"] - pool) / run["ftl"]["logical_sectors"]


def main():
    folder, png = Path(sys.argv[1]), sys.argv[2]
    series = {}
    for f in sorted(folder.glob("*/run.json")):
        r = json.loads(f.read_text())
        op = float(r["config"]["ftl.op"])
        series.setdefault(r["config"]["ftl.gc_policy"], []).append((op, r["waf"], alpha_of(r)))
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


if __name__ == "__main__":
    main()
