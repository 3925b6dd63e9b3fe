#!/usr/bin/env python3
"""The PTSD paper's experiment on the platform, run through the sweep engine (scripts/ssdvp_sweep:
Dask, results store), with the test suite's checks and the report in docs/results. What it
runs and checks: scripts/ssdvp_sweep/experiments/ptsd.py; the report: ptsd_report.py.

  scripts/ptsd_experiment.py [--build build] [--scale full|scaled]
                             [--experiment all|checked|paper,mixed,adapt-read,adapt-write]
                             [--only SCHEME] [--out DIR] [--fresh] [--report docs/results] [--report-only]
                             [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/ptsd_experiment.py --check DIR [--experiment ...]   # the suite's assertions on DIR's runs

full: 16 GiB logical, 32 GiB written, 1 Mi requests after (about 25 min on 2 cores);
scaled: 4 GiB logical, 8 GiB written, 400 Ki requests: the same ratios (ctest -R ptsd).
--check needs every run of the checked parts (default: paper, adapt-read, adapt-write) in DIR's
store, each completed without error; a missing or failed run is named and fails the check.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.cli import binary_path  # noqa: E402
from ssdvp_sweep.clusters import add_cluster_options  # noqa: E402
from ssdvp_sweep.errors import SweepInputError  # noqa: E402
from ssdvp_sweep.experiment_runner import print_findings, run_experiment  # noqa: E402
from ssdvp_sweep.experiments.ptsd import CHECKED, PARTS, SCALE, SCHEMES, Ptsd, unusable  # noqa: E402
from ssdvp_sweep.store import ResultsStore  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def parts_of(text):
    if text == "all":
        return list(PARTS)
    if text == "checked":
        return list(CHECKED)
    parts = [p.strip() for p in text.split(",")]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        raise SweepInputError(f"--experiment {text}: unknown part(s) {', '.join(bad)} "
                              f"(known: all, checked, {', '.join(PARTS)})")
    return parts


def check(directory, parts):
    store = Path(directory) / "results.parquet"
    if not store.exists():
        print(f"FAIL: {store}: no results store (run scripts/ptsd_experiment.py --out {directory})")
        return 1
    errors = Ptsd().checks(ResultsStore(directory).tagged_rows("ptsd"), parts)
    for e in errors:
        print("FAIL:", e)
    print(f"ptsd checks ({', '.join(parts)}):", "failed" if errors else "passed")
    return 1 if errors else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--scale", choices=SCALE, default="full")
    ap.add_argument("--experiment", default=None, help="all (default), checked, or parts: paper,mixed,...")
    ap.add_argument("--only", choices=SCHEMES, help="run one scheme")
    ap.add_argument("--out", default=None, help="sweep folder: the store (default build/ptsd-SCALE)")
    ap.add_argument("--fresh", action="store_true", help="empty the sweep folder first (run everything again)")
    ap.add_argument("--report", default=None, help="write the page, tables and plots here (e.g. docs/results)")
    ap.add_argument("--report-only", action="store_true", help="no runs: the report from the runs in --out")
    ap.add_argument("--check", metavar="DIR", help="check the runs in DIR's store and exit")
    ap.add_argument("--timeout", type=float, default=None, help="seconds after which a run is killed")
    add_cluster_options(ap)
    args = ap.parse_args()
    try:
        if args.check:
            return check(args.check, parts_of(args.experiment or "checked"))
        parts = parts_of(args.experiment or "all")
        out = args.out or str(Path(args.build) / f"ptsd-{args.scale}")
        experiment = Ptsd()
        if args.report_only:
            results = ResultsStore(out).tagged_rows("ptsd")
        else:
            specs = [s for s in experiment.runs(args.scale, parts) if not args.only or s.tag.endswith("/" + args.only)]
            results = run_experiment(experiment, specs, out, args, binary_path(Path(args.build) / "platforms" / "ssdvp"),
                                     fresh=args.fresh)
    except SweepInputError as e:
        sys.stderr.write(f"ptsd_experiment: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("ptsd_experiment: interrupted; finished runs are kept in the store\n")
        return 130
    wanted = [f"{p}/{s}" for p in parts for s in PARTS[p] if not args.only or s == args.only]
    failed = [e for e in unusable({t: r for t, r in results.items() if t in wanted}, parts)
              if e.split(":")[0] in wanted]
    for e in failed:
        sys.stderr.write(f"ptsd_experiment: {e}\n")
    print_findings(experiment, args.scale, experiment.findings(results))
    if args.report:
        missing = unusable(results, parts)
        if missing:
            sys.stderr.write("ptsd_experiment: no report: " + "; ".join(missing) + "\n")
            return 1
        for path in experiment.report(results, args.scale, args.report, experiment.findings(results)):
            print(f"report: {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
