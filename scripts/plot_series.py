#!/usr/bin/python3
"""The steady-state view of one run, from the time series in its run.json (written when the run
had -s sim.series_interval_ms=N): three panels over simulated time, sharing the time axis:

  1. host throughput, MiB/s per operation, each interval thin and its moving mean (1/100 of the
     run) bold;
  2. latency p50 (dashed) and p99 (solid) per operation, log scale; an interval in which no
     request of an operation completed leaves a gap;
  3. device state: free superblocks, sectors moved by GC in each interval, and the write
     buffer's fill (% of its entries) at each interval's end.

A dotted line marks the first interval in which GC moved data: on a write run that fills the
drive's free space, the throughput cliff and the latency jump line up with it.

  scripts/plot_series.py RUN_DIR [-o OUT.png|OUT.svg]       # default RUN_DIR/series.png

Exit status 2, with a message naming the file and the missing key, for a folder without
run.json or a run.json without (or with a malformed) "series".
Leaves out: the per-interval request and byte counts, cumulative WAF, GC runs and erases (in the
series, not drawn), and the run's totals (scripts/ssdvp_report.py puts them beside this plot).
scripts/ssdvp_report.py draws its time series with series_figure (and reads the run with
load_run and series_of) from here.
"""
import argparse
import json
import sys
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

OPS = ("read", "write", "trim", "flush")
OP_COLOURS = {"read": "tab:blue", "write": "tab:red", "trim": "tab:green", "flush": "tab:purple"}
OP_SERIES_KEYS = ("mib_s", "p50_us", "p99_us")
DEVICE_SERIES_KEYS = ("free_superblocks", "gc_prog_sectors", "wbuf_used")
NO_SERIES = "no time series: run with -s sim.series_interval_ms=N"
MEAN_WINDOW_SHARE = 100  # the throughput's moving mean spans 1/this of the intervals


class BadRunDir(Exception):
    """A run folder that cannot be read; the message names the file and what is wrong."""


class MissingSeries(BadRunDir):
    """run.json has no "series": the run had no sim.series_interval_ms."""


def load_run(run_dir):
    """run.json of run_dir as a dict; BadRunDir if the folder or file is missing or not JSON."""
    run_dir = Path(run_dir)
    path = run_dir / "run.json"
    if not run_dir.is_dir():
        raise BadRunDir(f"{run_dir}: no such folder")
    if not path.is_file():
        raise BadRunDir(f"{path}: missing (not a run folder of ssdvp run)")
    try:
        run = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise BadRunDir(f"{path}: unreadable: {e}") from e
    if not isinstance(run, dict):
        raise BadRunDir(f"{path}: not a JSON object")
    return run


def series_of(run, path):
    """run["series"], checked: every key the plot draws is there and as long as t_ms.
    MissingSeries if there is no series, BadRunDir naming path and key if it is malformed."""
    if "series" not in run:
        raise MissingSeries(f"{path}: no key 'series' ({NO_SERIES})")
    series = run["series"]

    def need(node, key, where):
        if not isinstance(node, dict) or key not in node:
            raise BadRunDir(f"{path}: no key '{where}.{key}'")
        return node[key]

    t_ms = need(series, "t_ms", "series")
    if not isinstance(t_ms, list) or not t_ms:
        raise BadRunDir(f"{path}: 'series.t_ms' has no intervals (the run was shorter than one interval?)")
    need(series, "interval_ms", "series")
    ops = need(series, "ops", "series")
    device = need(series, "device", "series")
    columns = [(f"series.ops.{op}.{key}", need(need(ops, op, "series.ops"), key, f"series.ops.{op}"))
               for op in ops for key in OP_SERIES_KEYS]
    columns += [(f"series.device.{key}", need(device, key, "series.device")) for key in DEVICE_SERIES_KEYS]
    for name, values in columns:
        if not isinstance(values, list) or len(values) != len(t_ms):
            raise BadRunDir(f"{path}: '{name}' is not a list of {len(t_ms)} values, one per interval of series.t_ms")
    if not isinstance(need(device, "wbuf_entries", "series.device"), (int, float)):
        raise BadRunDir(f"{path}: 'series.device.wbuf_entries' is not a number")
    return series


def _floats(values):
    """A list with nulls as a float array with NaN (a gap in the line)."""
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def _moving_mean(values, window):
    """Mean of the last `window` values at each point (fewer at the start)."""
    sums = np.cumsum(np.insert(values, 0, 0.0))
    ends = np.arange(1, len(values) + 1)
    starts = np.maximum(ends - window, 0)
    return (sums[ends] - sums[starts]) / (ends - starts)


def _clip_bursts(ax, mib_s):
    """Tops the throughput axis at 1.5 x the 99th percentile of the intervals (the rest is room
    for the legend) so that a burst of a few intervals, e.g. an empty write buffer taking writes
    at link speed, does not flatten the steady state; says on the plot how many it left out."""
    top = max(1.0, np.percentile(mib_s, 99)) * 1.5
    above = mib_s > top
    ax.set_ylim(0, top)
    if above.any():
        count = f"{above.sum()} interval{'s' if above.sum() > 1 else ''}"
        ax.annotate(f"{count} above the axis, up to {mib_s.max():,.0f} MiB/s",
                    (1.0, 1.0), xycoords="axes fraction", xytext=(-4, -12), textcoords="offset points",
                    ha="right", fontsize=8, color="dimgray")


def series_figure(series, title=None):
    """The three-panel figure (matplotlib Figure) of a series checked by series_of."""
    t_ms = np.array(series["t_ms"], dtype=float)
    in_seconds = t_ms[-1] >= 2000
    t = t_ms / 1000 if in_seconds else t_ms
    ops = [op for op in OPS if op in series["ops"]] + sorted(set(series["ops"]) - set(OPS))
    device = series["device"]
    window = max(1, len(t) // MEAN_WINDOW_SHARE)

    fig, (tput, lat, state) = plt.subplots(3, 1, figsize=(11, 9), sharex=True)
    all_mib_s = []
    for op in ops:
        colour = OP_COLOURS.get(op, "tab:gray")
        mib_s = _floats(series["ops"][op]["mib_s"])
        all_mib_s.append(mib_s)
        if window > 1:
            tput.plot(t, mib_s, color=colour, lw=0.5, alpha=0.35)
            window_ms = window * series["interval_ms"]
            tput.plot(t, _moving_mean(np.nan_to_num(mib_s), window), color=colour, lw=1.6,
                      label=f"{op} (bold: mean of {window} intervals, {window_ms:g} ms)")
        else:
            tput.plot(t, mib_s, color=colour, lw=1.2, label=op)
        lat.plot(t, _floats(series["ops"][op]["p99_us"]), color=colour, lw=0.9, label=f"{op} p99")
        lat.plot(t, _floats(series["ops"][op]["p50_us"]), color=colour, lw=0.9, ls="--", alpha=0.6,
                 label=f"{op} p50")
    _clip_bursts(tput, np.nan_to_num(np.concatenate(all_mib_s)))
    tput.set_ylabel("MiB/s")
    tput.set_title(f"host throughput per {series['interval_ms']:g} ms interval")
    lat.set_yscale("log")
    low, high = lat.get_ylim()
    lat.set_ylim(low, high * 20)  # room for the legend above the lines
    lat.set_ylabel("latency (us)")
    lat.set_title("latency of the requests completed in each interval")

    free_superblocks = _floats(device["free_superblocks"])
    gc_sectors = _floats(device["gc_prog_sectors"])
    free = state.plot(t, free_superblocks, color="black", lw=1.2, label="free superblocks")
    state.set_ylabel("free superblocks")
    state.set_ylim(0, 1.4 * max(1, np.nanmax(free_superblocks)))
    gc_axis = state.twinx()
    gc = gc_axis.plot(t, gc_sectors, color="tab:orange", lw=0.8, label="sectors moved by GC per interval")
    gc_axis.set_ylabel("GC sectors / interval", color="tab:orange")
    gc_axis.set_ylim(0, 1.4 * max(1, np.nanmax(gc_sectors)))
    fill_axis = state.twinx()
    fill_axis.spines["right"].set_position(("axes", 1.09))
    fill = fill_axis.plot(t, 100 * _floats(device["wbuf_used"]) / device["wbuf_entries"], color="tab:cyan",
                          lw=1.0, label=f"write buffer fill (of {device['wbuf_entries']:g} entries)")
    fill_axis.set_ylabel("write buffer fill (%)", color="tab:cyan")
    fill_axis.set_ylim(0, 140)
    fill_axis.set_yticks(range(0, 101, 20))
    lines = free + gc + fill
    state.legend(lines, [line.get_label() for line in lines], fontsize=8, loc="upper left", ncol=3)
    state.set_title("device state at each interval's end")
    state.set_xlabel(f"simulated time since the measured run began ({'s' if in_seconds else 'ms'})")

    gc_moved = np.nonzero(np.nan_to_num(gc_sectors) > 0)[0]
    if len(gc_moved):
        gc_start = t[gc_moved[0]]
        for ax in (tput, lat, state):
            ax.axvline(gc_start, color="dimgray", ls=":", lw=1.2)
        tput.annotate(f"GC starts ({gc_start:g} {'s' if in_seconds else 'ms'})", (gc_start, 0.5),
                      xycoords=("data", "axes fraction"), xytext=(3, 0), textcoords="offset points",
                      rotation=90, va="center", fontsize=8, color="dimgray",
                      bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.7, "pad": 1})
    for ax in (tput, lat):
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left", ncol=min(len(ops), 3) * (1 if ax is tput else 2))
    state.grid(True, alpha=0.3)
    if title:
        fig.suptitle("\n".join(textwrap.wrap(title, 110)), fontsize=10)
    fig.tight_layout()
    return fig


def run_title(run):
    return f"{run.get('platform', '?')}: {run.get('workload', '?')}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", type=Path, help="folder of one ssdvp run (run.json)")
    parser.add_argument("-o", "--out", type=Path, help="output .png or .svg (default RUN_DIR/series.png)")
    args = parser.parse_args()
    out = args.out or args.run_dir / "series.png"
    if out.suffix not in (".png", ".svg"):
        parser.error(f"{out}: the output must end in .png or .svg")
    try:
        run = load_run(args.run_dir)
        series = series_of(run, args.run_dir / "run.json")
    except BadRunDir as e:
        print(f"plot_series: {e}", file=sys.stderr)
        sys.exit(2)
    fig = series_figure(series, run_title(run))
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
