"""The command line of one registered experiment (scripts/ptsd_experiment.py,
scripts/lapt_experiment.py): its runs through the sweep engine, the test suite's checks on a
store (--check), its findings and its report page.  What an experiment runs, checks and
reports is its module in experiments/; this file only parses options and calls it.
Leaves out running several experiments (reproduce.py) and the engine itself (engine.py).
"""
import argparse
import shutil
import sys
from pathlib import Path

from .cli import binary_path
from .clusters import add_cluster_options
from .errors import SweepInputError
from .experiment_runner import print_findings, run_experiment
from .experiments import SCALES, MissingFigure, load_all
from .store import ResultsStore

ROOT = Path(__file__).resolve().parent.parent.parent


def parts_of(experiment, text):
    if text == "all":
        return list(experiment.parts)
    if text == "checked":
        return list(experiment.checked)
    parts = [p.strip() for p in text.split(",")]
    bad = [p for p in parts if p not in experiment.parts]
    if bad:
        raise SweepInputError(f"--experiment {text}: unknown part(s) {', '.join(bad)} "
                              f"(known: all, checked, {', '.join(experiment.parts)})")
    return parts


def check(experiment, script, directory, parts):
    store = Path(directory) / "results.parquet"
    if not store.exists():
        print(f"FAIL: {store}: no results store (run scripts/{script} --out {directory})")
        return 1
    try:
        errors = experiment.checks(ResultsStore(directory).tagged_rows(experiment.name), parts)
    except MissingFigure as e:   # a figure read outside the claims: the checks cannot run
        errors = [str(e)]
    for e in errors:
        print("FAIL:", e)
    print(f"{experiment.name} checks ({', '.join(parts)}):", "failed" if errors else "passed")
    return 1 if errors else 0


def main(name, doc, script=None):
    experiment = load_all()[name]
    script = script or f"{name.replace('-', '_')}_experiment.py"
    ap = argparse.ArgumentParser(prog=script, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="build folder (its platforms/ssdvp runs)")
    ap.add_argument("--binary", default=None, help="ssdvp binary (default BUILD/platforms/ssdvp)")
    ap.add_argument("--scale", choices=SCALES, default="full")
    ap.add_argument("--experiment", default=None,
                    help=f"all (default), checked ({','.join(experiment.checked)}), or parts: {','.join(experiment.parts)}")
    ap.add_argument("--only", choices=experiment.schemes, help="run one scheme")
    ap.add_argument("--out", default=None, help=f"sweep folder: the store and the runs' files (default build/{name}-SCALE)")
    ap.add_argument("--fresh", action="store_true", help="empty the sweep folder first (run everything again)")
    ap.add_argument("--report", default=None, help="write the page, tables and plots here (e.g. docs/results)")
    ap.add_argument("--report-only", action="store_true", help="no runs: the report from the runs in --out")
    ap.add_argument("--check", metavar="DIR", help="check the runs in DIR's store and exit")
    ap.add_argument("--timeout", type=float, default=None, help="seconds after which a run is killed")
    add_cluster_options(ap)
    args = ap.parse_args()
    only = args.only

    def picked(tag):
        return not only or experiment.scheme_of(tag) == only

    try:
        if args.check:
            return check(experiment, script, args.check, parts_of(experiment, args.experiment or "checked"))
        parts = parts_of(experiment, args.experiment or "all")
        out = Path(args.out or Path(args.build) / f"{name}-{args.scale}")
        experiment.workdir = out
        if args.report_only:
            results = ResultsStore(out).tagged_rows(name)
        else:
            if args.fresh and out.exists():
                shutil.rmtree(out)          # before the runs' files are written into it
            binary = binary_path(args.binary or Path(args.build) / "platforms" / "ssdvp")
            specs = [s for s in experiment.runs(args.scale, parts) if picked(s.tag)]
            results = run_experiment(experiment, specs, out, args, binary)
    except SweepInputError as e:
        sys.stderr.write(f"{script}: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{script}: interrupted; finished runs are kept in the store\n")
        return 130
    wanted = [t for t in experiment.expected_tags(parts) if picked(t)]
    failed = [e for e in experiment.unusable({t: r for t, r in results.items() if t in wanted}, parts)
              if e.split(":")[0] in wanted]
    for e in failed:
        sys.stderr.write(f"{script}: {e}\n")
    for line in experiment.run_notes(wanted, failed):
        print(f"{script}: {line}")
    # Findings from the usable runs only: a failed run (reported above) has none of the figures
    # a finding reads, and a finding whose runs are missing is left out.
    failed_tags = {e.split(":")[0] for e in failed}
    print_findings(experiment, args.scale, experiment.findings({t: r for t, r in results.items() if t not in failed_tags}))
    if args.report:
        missing = experiment.unusable(results, experiment.report_parts(parts))
        if missing:
            sys.stderr.write(f"{script}: no report: " + "; ".join(missing) + "\n")
            return 1
        try:
            paths = experiment.report(results, args.scale, args.report, experiment.findings(results))
        except MissingFigure as e:   # the page shows a figure a run lacks: no page rather than a 0
            sys.stderr.write(f"{script}: no report: {e}\n")
            return 1
        for path in paths:
            print(f"report: {path}")
    return 1 if failed else 0
