#!/usr/bin/python3
"""Plots latency CDFs (from the latency_<op>.csv histograms ssdvp writes) of one or more runs,
whole and from p80 up (the tail).

  scripts/plot_latency_cdf.py read out.png ssdvp-out [other-run-folder ...]
"""
import csv
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(folder, op):
    xs, ys = [], []
    with open(Path(folder) / f"latency_{op}.csv") as f:
        for row in csv.DictReader(f):
            xs.append((int(row["low_ns"]) + int(row["high_ns"])) / 2 / 1000)
            ys.append(float(row["cumulative"]))
    return xs, ys


def label(folder):
    r = json.loads((Path(folder) / "run.json").read_text())
    return f"{Path(folder).name}: {r['platform']}"


def main():
    op, png, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
    fig, (whole, tail) = plt.subplots(1, 2, figsize=(10, 4))
    for folder in folders:
        xs, ys = load(folder, op)
        whole.plot(xs, ys, label=label(folder))
        tail.plot(xs, [100 * y for y in ys], label=label(folder))
    whole.set_xscale("log")
    whole.set_xlabel(f"{op} latency (us)")
    whole.set_ylabel("fraction of requests")
    whole.set_title(f"{op} latency CDF")
    tail.set_xscale("log")
    tail.set_ylim(80, 100.05)
    tail.set_xlabel(f"{op} latency (us)")
    tail.set_ylabel("percentile")
    tail.set_title("from p80 up")
    for ax in (whole, tail):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main()
