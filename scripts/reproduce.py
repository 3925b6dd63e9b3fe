#!/usr/bin/env python3
"""Reproduces every research experiment of the project through the sweep engine: for each
registered experiment (scripts/ssdvp_sweep/experiments/), runs it at the chosen scale on the
chosen Dask cluster (runs already in its store are not run again), runs its checks, writes its
page, tables and plots into --report, and prints the paper's findings next to this run's figures
with a pass/differs verdict. The pages of the full scale are the project's (docs/results, the
default there); a scaled run writes its pages beside its stores (build/reproduce-scaled/pages)
unless --report says otherwise, so that it never replaces the full pages in the checkout. The
first line says where stores and pages go.

  scripts/reproduce.py [--scale scaled|full] [--only NAME] [--out DIR] [--report DIR]
                       [--workers N | --scheduler tcp://H:P | --slurm ...]

Exit status: 0 every run ok and every check passed ("differs" findings are reported, not
failures), 1 a run failed or a check failed, 2 bad input. Adding an experiment: one module in
scripts/ssdvp_sweep/experiments/ (docs/sweeps.md).
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.cli import DEFAULT_BINARY, binary_path  # noqa: E402
from ssdvp_sweep.clusters import add_cluster_options  # noqa: E402
from ssdvp_sweep.errors import SweepInputError  # noqa: E402
from ssdvp_sweep.experiment_runner import print_findings, run_experiment  # noqa: E402
from ssdvp_sweep.experiments import SCALES, MissingFigure, load_all  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main():
    registry = load_all()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", choices=SCALES, default="full", help="full (the papers' sizes, default) or scaled")
    ap.add_argument("--only", action="append", help=f"experiment to run (repeatable): {', '.join(registry)}")
    ap.add_argument("--out", default=None, help="stores, one folder per experiment (default build/reproduce-SCALE)")
    ap.add_argument("--report", default=None,
                    help="where pages and plots go (default: docs/results for --scale full, OUT/pages for scaled)")
    ap.add_argument("--no-report", action="store_true", help="run and check only")
    ap.add_argument("--binary", default=str(DEFAULT_BINARY))
    ap.add_argument("--timeout", type=float, default=None, help="seconds after which a run is killed")
    add_cluster_options(ap)
    args = ap.parse_args()
    try:
        unknown = [n for n in args.only or [] if n not in registry]
        if unknown:
            raise SweepInputError(f"--only {', '.join(unknown)}: no such experiment (known: {', '.join(registry)})")
        binary = binary_path(args.binary)
        out = Path(args.out or ROOT / "build" / f"reproduce-{args.scale}")
        if args.report is None:
            args.report = str(ROOT / "docs" / "results" if args.scale == "full" else out / "pages")
        print(f"reproduce: scale {args.scale}; stores in {out}; "
              + ("no pages (--no-report)" if args.no_report else f"pages and plots into {args.report}"), flush=True)
        status, summary = 0, []
        for name in args.only or list(registry):
            experiment = registry[name]
            experiment.workdir = out / name      # files an experiment makes for its runs (lapt: traces)
            results = run_experiment(experiment, experiment.runs(args.scale), out / name, args, binary)
            findings = experiment.findings(results)
            errors = experiment.checks(results, experiment.parts or None)
            print_findings(experiment, args.scale, findings)
            for e in errors:
                print(f"  check FAILED: {e}")
            print(f"  checks: {'failed' if errors else 'passed'}")
            if errors:
                status = 1
            elif not args.no_report:
                try:
                    for path in experiment.report(results, args.scale, args.report, findings):
                        print(f"  wrote {path}")
                except MissingFigure as e:   # the page shows a figure a run lacks: no page rather than a 0
                    print(f"  no report: {e}")
                    status = 1
            summary.append(f"{name}: {sum(f.passed for f in findings)} pass, "
                           f"{sum(not f.passed for f in findings)} differ, checks {'failed' if errors else 'passed'}")
        print("\n" + "\n".join(summary))
        return status
    except SweepInputError as e:
        sys.stderr.write(f"reproduce: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("reproduce: interrupted; finished runs are kept in the stores\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
