#!/usr/bin/python3
"""The PTSD paper's experiment on the platform (../shared/papers/README.md section 1).

Board of the paper (platforms/ptsd-board.toml: 8 channels x 4 ways, SLC pages of 4 KiB, flash
read 120 us / program 480 us), 20% over-provisioning, mapping cache = 20% of the whole map,
queue depth 128, an empty drive; random writes of twice the logical space, then random reads.
Schemes: opt, dftl, part, part-sched, writeopt, adaptive (ftl.mapping).

  scripts/ptsd_experiment.py [--build build] [--scale full|scaled]
                             [--experiment paper|mixed|adapt-read|adapt-write|all]
                             [--only SCHEME] [--out DIR] [--report docs/results] [--report-only]
  scripts/ptsd_experiment.py --check DIR     # the assertions of the test suite on DIR's runs

full: 16 GiB logical (1280 blocks per plane), 32 GiB written, 1 Mi reads.
scaled: 4 GiB logical (320 blocks per plane), 8 GiB written, 400 Ki reads: the same ratios,
runs in the test suite (ctest -R ptsd).
Experiments: paper = random writes, then random reads; mixed = random writes, then a 50/50
random read/write mix (reads measured while the write buffer flushes); adapt-read and
adapt-write = random writes, then a 90/10 (10/90) read/write mix, comparing the fixed 50:50
split (writeopt) with the adaptive split under the same scheduler (adaptive with
ftl.sched=write-stop): the controller alone.
Each run writes DIR/EXPERIMENT/SCHEME/run.json and latency_read.csv; --report writes
REPORT/ptsd.md and the plots (needs matplotlib; Debian's /usr/bin/python3 has it).
"""
import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

SCHEMES = ["opt", "dftl", "part", "part-sched", "writeopt", "adaptive"]
EXPERIMENTS = {"paper": SCHEMES, "mixed": SCHEMES, "adapt-read": ["writeopt", "adaptive"],
               "adapt-write": ["writeopt", "adaptive"]}
READ_MIX = {"mixed": 50, "adapt-read": 90, "adapt-write": 10}
SCALES = {
    #         blocks_per_plane, host writes, reads
    "full": (1280, 2 * 4 * 1024 * 1024, 1024 * 1024),
    "scaled": (320, 2 * 1024 * 1024, 400 * 1024),
}
ROOT = Path(__file__).resolve().parent.parent


def workload(scale, experiment):
    _, writes, reads = SCALES[scale]
    w = f"fio:rw=randwrite,bs=4k,iodepth=128,io={writes}"
    if experiment == "paper":
        return f"{w};fio:rw=randread,bs=4k,iodepth=128,io={reads}"
    return f"{w};fio:rw=randrw,rwmixread={READ_MIX[experiment]},bs=4k,iodepth=128,io={reads}"


def command(build, scale, experiment, scheme, out):
    blocks = SCALES[scale][0]
    return [str(Path(build) / "platforms" / "ssdvp"), "run", "--quiet",
            "--platform", str(ROOT / "platforms" / "ptsd-board.toml"),
            "--set", f"nand.blocks_per_plane={blocks}", "--set", f"ftl.mapping={scheme}",
            "--set", "ftl.op=0.2", "--set", "ftl.cmt_ratio=0.2",
            "--set", "precondition.fill=0", "--set", "precondition.overwrite=0",
            "--set", "sim.progress=false",
            *(["--set", "ftl.sched=write-stop"] if experiment.startswith("adapt") and scheme == "adaptive" else []),
            "--out", str(out), "--workload", workload(scale, experiment)]


def run(args, experiment, scheme):
    out = Path(args.out) / experiment / scheme
    out.mkdir(parents=True, exist_ok=True)
    cmd = command(args.build, args.scale, experiment, scheme, out)
    t0 = time.time()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout)
        sys.exit(f"ptsd_experiment: {scheme} ({experiment}) failed with status {r.returncode}: {' '.join(cmd)}")
    print(f"  {experiment:6} {scheme:11} {time.time() - t0:7.1f} s wall", flush=True)


def load(directory, experiment):
    runs = {}
    for scheme in EXPERIMENTS[experiment]:
        p = Path(directory) / experiment / scheme / "run.json"
        if p.exists():
            runs[scheme] = json.loads(p.read_text())
    return runs


def throughput(r):
    return r["host_requests"] / r["sim_time_s"]


def read_wait(r, key):
    w = r["ops"]["read"].get("waited_for", {})
    return w.get(key, {}).get("requests", 0)


def check(directory):
    """The test suite's assertions (they can fail: each compares schemes on measured figures)."""
    errors = []
    runs = load(directory, "paper")
    missing = [s for s in SCHEMES if s not in runs]
    if missing:
        return [f"runs missing in {directory}/paper: {', '.join(missing)}"]
    for s, r in runs.items():
        if not r["completed"]:
            errors.append(f"{s}: run did not complete")
        if r["integrity"]["mismatches"]:
            errors.append(f"{s}: {r['integrity']['mismatches']} integrity mismatches")
    # Every request checked: reads that waited for a translation page write (the firmware's
    # per-command flags, in each read's completion).
    for s in SCHEMES[2:]:
        n = read_wait(runs[s], "map_write")
        if n:
            errors.append(f"{s}: {n} host reads waited for a translation page write (a read must never cause one)")
    if read_wait(runs["dftl"], "map_write") == 0:
        errors.append("dftl: no host read waited for a translation page write (the check would not see one)")
    p999 = {s: runs[s]["ops"]["read"]["latency_us"]["p99.9"] for s in SCHEMES}
    if not p999["part-sched"] < p999["dftl"]:
        errors.append(f"p99.9 read latency: part-sched {p999['part-sched']:.0f} us is not below dftl {p999['dftl']:.0f} us")
    tput = {s: throughput(runs[s]) for s in SCHEMES}
    if not tput["writeopt"] > tput["part-sched"]:
        errors.append(f"throughput: writeopt {tput['writeopt']:.0f}/s is not above part-sched {tput['part-sched']:.0f}/s")
    best = max(tput, key=tput.get)
    if best != "opt":
        errors.append(f"throughput: {best} ({tput[best]:.0f}/s) beats opt ({tput['opt']:.0f}/s)")
    # The adaptive split against the fixed 50:50 one, same scheduler, read- and write-heavy.
    for experiment in ("adapt-read", "adapt-write"):
        runs = load(directory, experiment)
        if len(runs) < 2:
            continue
        a, w = throughput(runs["adaptive"]), throughput(runs["writeopt"])
        if not a > w:
            errors.append(f"{experiment}: adaptive split {a:.0f}/s is not above the fixed 50:50 {w:.0f}/s")
    return errors


def cdf_points(run_dir):
    xs, ys = [], []
    p = Path(run_dir) / "latency_read.csv"
    for line in p.read_text().splitlines()[1:]:
        low, high, count, cum = line.split(",")
        xs.append(int(high) / 1000.0)
        ys.append(float(cum))
    return xs, ys


def latency_axes(ax, title):
    ax.set_xscale("log")
    ax.set_xlabel("read latency (us)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()


def report(args, experiments):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rep = Path(args.report)
    rep.mkdir(parents=True, exist_ok=True)
    lines = []
    for experiment in experiments:
        runs = load(args.out, experiment)
        if not runs:
            continue
        ref = "dftl" if "dftl" in runs else "writeopt"
        lines.append(f"### Experiment `{experiment}` ({args.scale})\n")
        lines.append(f"| scheme | sched | throughput (req/s) | vs {ref} | read p50 us | p99 | p99.9 | max | "
                     "reads waited: map read | map write | GC | TP reads | TP writes | WAF | cache DRAM (B) |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for s in EXPERIMENTS[experiment]:
            if s not in runs:
                continue
            r = runs[s]
            l = r["ops"]["read"]["latency_us"]
            m = r.get("mapping", {})
            n = r["ops"]["read"]["requests"]
            pct = lambda k: f"{100.0 * read_wait(r, k) / n:.1f}%"
            dram = m.get("dram_bytes", {})
            lines.append(
                f"| {s} | {m.get('sched', 'bypass')} | {throughput(r):,.0f} | "
                f"{throughput(r) / throughput(runs[ref]):.2f}x | {l['p50']:,.0f} | {l['p99']:,.0f} | "
                f"{l['p99.9']:,.0f} | {l['max']:,.0f} | {pct('map_read')} | {pct('map_write')} | {pct('gc')} | "
                f"{m.get('tp_reads', 0):,} | {m.get('tp_writes', 0):,} | {r['waf']:.2f} | "
                f"{dram.get('cmt', 0) + dram.get('dirty_entries', 0):,} |")
        lines.append("")
        tag = f"ptsd-{experiment}"
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for s in runs:
            xs, ys = cdf_points(Path(args.out) / experiment / s)
            ax.plot(xs, ys, label=s)
        ax.set_ylabel("CDF")
        latency_axes(ax, f"Read latency CDF ({experiment}, {args.scale})")
        fig.tight_layout()
        fig.savefig(rep / f"{tag}-read-cdf.png", dpi=110)
        ax.set_ylim(0.8, 1.001)
        ax.set_title(f"Read latency CDF from p80 ({experiment}, {args.scale})")
        fig.savefig(rep / f"{tag}-read-cdf-p80.png", dpi=110)
        plt.close(fig)

        fig, ax = plt.subplots(figsize=(7, 4.5))
        for s in runs:
            xs, ys = cdf_points(Path(args.out) / experiment / s)
            density = [ys[0]] + [b - a for a, b in zip(ys, ys[1:])]
            ax.plot(xs, density, label=s, drawstyle="steps-mid")
        ax.set_ylabel("fraction of reads per bucket")
        latency_axes(ax, f"Read latency distribution ({experiment}, {args.scale})")
        fig.tight_layout()
        fig.savefig(rep / f"{tag}-read-distribution.png", dpi=110)
        plt.close(fig)

        fig, ax = plt.subplots(figsize=(7, 4))
        names = [s for s in EXPERIMENTS[experiment] if s in runs]
        ax.bar(names, [throughput(runs[s]) for s in names])
        ax.set_ylabel("host requests / s (simulated)")
        ax.set_title(f"Total throughput ({experiment}, {args.scale})")
        fig.tight_layout()
        fig.savefig(rep / f"{tag}-throughput.png", dpi=110)
        plt.close(fig)
        lines.append(f"![read CDF]({tag}-read-cdf.png) ![read CDF from p80]({tag}-read-cdf-p80.png)\n")
        lines.append(f"![read distribution]({tag}-read-distribution.png) ![throughput]({tag}-throughput.png)\n")
    (rep / f"ptsd-tables-{args.scale}.md").write_text("\n".join(lines) + "\n")
    print(f"report: {rep / f'ptsd-tables-{args.scale}.md'} and plots in {rep}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--scale", choices=SCALES, default="full")
    ap.add_argument("--experiment", choices=list(EXPERIMENTS) + ["all"], default="all")
    ap.add_argument("--only", choices=SCHEMES, help="run one scheme")
    ap.add_argument("--out", default=None, help="run directory (default build/ptsd-SCALE)")
    ap.add_argument("--report", default=None, help="write ptsd-tables-SCALE.md and plots here")
    ap.add_argument("--check", metavar="DIR", help="check the runs in DIR and exit")
    ap.add_argument("--report-only", action="store_true", help="no runs: the report from the runs in --out")
    args = ap.parse_args()
    if args.check:
        errors = check(args.check)
        for e in errors:
            print("FAIL:", e)
        print("ptsd checks:", "failed" if errors else "passed")
        return 1 if errors else 0
    args.out = args.out or str(Path(args.build) / f"ptsd-{args.scale}")
    experiments = list(EXPERIMENTS) if args.experiment == "all" else [args.experiment]
    for experiment in experiments if not args.report_only else []:
        for scheme in ([args.only] if args.only else EXPERIMENTS[experiment]):
            if scheme in EXPERIMENTS[experiment]:
                run(args, experiment, scheme)
    if args.report:
        report(args, experiments)
    return 0


if __name__ == "__main__":
    sys.exit(main())
