#!/usr/bin/env python3
"""Plots measured write amplification against over-provisioning from a sweep's results store
(scripts/sweep.py with --grid ftl.op=... and optionally --grid ftl.gc_policy=...), with each
policy's analytic model for uniform random writes, as the tests hold the FTL to them
(testbenches/model/gc_models.h): greedy against the mean-field model (Van Houdt 2013), FIFO
against Desnoyers' (2012).  The measured figure is what the models count: 1 + GC copies / host
sectors programmed; the models' space is the physical space less the mean free pool GC keeps.
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


def fifo_waf(alpha):
    """Desnoyers: X0 = exp(-alpha (1 - X0)), WA = 1 / (1 - X0); alpha = 1 / utilisation."""
    x0 = -lambert_w0(-alpha * math.exp(-alpha)) / alpha
    return 1.0 / (1.0 - x0)


def greedy_waf(alpha, b):
    """Mean-field greedy (gc_models.h): the GC rate R whose lowest level k fits, WA = R b."""
    u = 1.0 / alpha
    h_tail = 0.0
    for k in range(b - 1, 0, -1):
        h_tail += 1.0 / (k + 1)
        r = (1.0 / (u * b) - 1.0 / k) / (h_tail - (b - k) / k)
        if 1.0 / (b - k + 1) - 1e-12 <= r <= 1.0 / (b - k) + 1e-12:
            return r * b
    raise ValueError(f"greedy_waf: no fixed point for utilisation {u:.3f}, {b}-sector blocks")


def model_waf(policy, alpha, b):
    return greedy_waf(alpha, b) if policy == "greedy" else fifo_waf(alpha)


def superblock_sectors(row):
    return int(row["config.nand.planes"]) * int(row["config.nand.mlc.pages_per_block"]) * int(row["config.nand.page_bytes"]) // 4096


def flash_waf(row):
    """1 + GC copies / host sectors programmed (write-buffer absorption and padding left out)."""
    gc = float(row["ftl.gc_copied_sectors"])
    host = float(row["ftl.flash_program_sectors"]) - gc - float(row["ftl.padding_sectors"])
    return 1.0 + gc / host


def alpha_of(row):
    """physical/logical space that can hold data: the free superblocks GC keeps are excluded."""
    dies = int(row["config.nand.channels"]) * int(row["config.nand.ways"])
    sb = superblock_sectors(row)
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
        series.setdefault(r["config.ftl.gc_policy"], []).append(
            (float(r["config.ftl.op"]), flash_waf(r), alpha_of(r), superblock_sectors(r)))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    names = {"greedy": "mean-field greedy (Van Houdt)", "fifo": "FIFO (Desnoyers)"}
    for i, (policy, pts) in enumerate(sorted(series.items())):
        pts.sort()
        line = ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=f"measured, {policy}")[0]
        if policy in names:
            ax.plot([p[0] for p in pts], [model_waf(policy, p[2], p[3]) for p in pts], "--", color=line.get_color(),
                    label=f"model: {names[policy]}")
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
        for op, waf, alpha, b in pts:
            if policy not in names:
                print(f"{policy:8s} op={op:.2f} waf={waf:.3f} (no model)")
                continue
            m = model_waf(policy, alpha, b)
            print(f"{policy:8s} op={op:.2f} waf={waf:.3f} model={m:.3f} ({100 * (waf / m - 1):+.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
