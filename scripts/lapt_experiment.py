#!/usr/bin/env python3
"""The LAPT paper's experiment on the platform, run through the sweep engine (scripts/ssdvp_sweep:
Dask, results store), with the test suite's checks and the report in docs/results. What it
runs and checks: scripts/ssdvp_sweep/experiments/lapt.py; the report: lapt_report.py.

  scripts/lapt_experiment.py [--build build] [--scale full|scaled]
                             [--experiment all|checked|total,slc-sweep,paper-ways,qd8] [--only SCHEME]
                             [--out DIR] [--fresh] [--report docs/results] [--report-only]
                             [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/lapt_experiment.py --check DIR [--experiment ...]   # the suite's assertions on DIR's runs

full: the paper's request counts (exchange 204,571, photoshop 23,498, random 33,740, general
300,000; tpcc-small 6,999), all parts about 2 minutes on 2 cores; scaled: half of each, the
checked parts (total, slc-sweep) about 30 s (ctest -R lapt). The traces are generated into
DIR/traces. --check needs every run of the checked parts (default: total, slc-sweep) in DIR's store,
each complete with clean integrity; a missing or failed run is named and fails the check.
"""
import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.cli import binary_path  # noqa: E402
from ssdvp_sweep.clusters import add_cluster_options  # noqa: E402
from ssdvp_sweep.errors import SweepInputError  # noqa: E402
from ssdvp_sweep.experiment_runner import print_findings, run_experiment  # noqa: E402
from ssdvp_sweep.experiments.lapt import CHECKED, PARTS, REFUSED_BLOCKS, SCALE, SCHEMES, Lapt, expected_tags, refused_tags, scheme_of, unusable  # noqa: E402
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
        print(f"FAIL: {store}: no results store (run scripts/lapt_experiment.py --out {directory})")
        return 1
    errors = Lapt().checks(ResultsStore(directory).tagged_rows("lapt"), parts)
    for e in errors:
        print("FAIL:", e)
    print(f"lapt checks ({', '.join(parts)}):", "failed" if errors else "passed")
    return 1 if errors else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="build folder (its platforms/ssdvp runs)")
    ap.add_argument("--binary", default=None, help="ssdvp binary (default BUILD/platforms/ssdvp)")
    ap.add_argument("--scale", choices=SCALE, default="full")
    ap.add_argument("--experiment", default=None, help="all (default), checked (total,slc-sweep), or parts: total,slc-sweep,paper-ways,qd8")
    ap.add_argument("--only", choices=SCHEMES, help="run one scheme")
    ap.add_argument("--out", default=None, help="sweep folder: the store and the traces (default build/lapt-SCALE)")
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
        out = Path(args.out or Path(args.build) / f"lapt-{args.scale}")
        experiment = Lapt()
        experiment.workdir = out
        if args.report_only:
            results = ResultsStore(out).tagged_rows("lapt")
        else:
            if args.fresh and out.exists():
                shutil.rmtree(out)          # before the traces are written into it
            binary = binary_path(args.binary or Path(args.build) / "platforms" / "ssdvp")
            specs = [s for s in experiment.runs(args.scale, parts) if not args.only or scheme_of(s.tag) == args.only]
            results = run_experiment(experiment, specs, out, args, binary)
    except SweepInputError as e:
        sys.stderr.write(f"lapt_experiment: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("lapt_experiment: interrupted; finished runs are kept in the store\n")
        return 130
    wanted = [t for t in expected_tags(parts) + (refused_tags() if "slc-sweep" in parts else [])
              if not args.only or scheme_of(t) == args.only]
    failed = [e for e in unusable({t: r for t, r in results.items() if t in wanted}, parts)
              if e.split(":")[0] in wanted]
    for e in failed:
        sys.stderr.write(f"lapt_experiment: {e}\n")
    if any(t in wanted for t in refused_tags()) and not any(e.split(":")[0] in refused_tags() for e in failed):
        print(f"lapt_experiment: the {len(refused_tags())} runs with {' and '.join(map(str, REFUSED_BLOCKS))} SLC "
              "blocks were refused by ssdvp (a configuration error, as expected: docs/results/lapt.md)")
    print_findings(experiment, args.scale, experiment.findings(results))
    if args.report:
        missing = unusable(results, list(PARTS))
        if missing:
            sys.stderr.write("lapt_experiment: no report: " + "; ".join(missing) + "\n")
            return 1
        for path in experiment.report(results, args.scale, args.report, experiment.findings(results)):
            print(f"report: {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
