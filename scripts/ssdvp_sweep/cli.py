"""`scripts/sweep.py`: the command line of the sweep engine. Reads the sweep (options and/or a
TOML file), checks every run's keys and values against the ssdvp binary before anything is
submitted (bad input: a message naming it, exit status 2), prints the runs (--dry-run) or runs
them on the chosen Dask cluster into the store in --out, then draws the swept keys against the
figures into OUT/plots (plots.py; --no-plots skips it). --plot-only --out OUT redraws OUT/plots
from the store alone and runs nothing. Exit status: 0 every run ok (--plot-only: drawn, or
nothing to draw), 1 some run failed (each recorded in the store with its status and stderr
tail), 2 bad input (--plot-only: no store in OUT, or options that define runs).

Leaves out the drawing itself (plots.py) and working out what varied (varied.py).
"""
import argparse
import shlex
import signal
import sys
from pathlib import Path

from .clusters import add_cluster_options, describe, open_client, state_cache_dir
from .engine import run_sweep, unique_runs
from .errors import SweepInputError
from .runspec import plan
from .schema import ConfigSchema
from .store import ResultsStore
from .sweepfile import definition_from_args

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BINARY = ROOT / "build" / "platforms" / "ssdvp"

EPILOG = """examples:
  scripts/sweep.py --grid ftl.op=0.07,0.2,0.4 --grid ftl.gc_policy=greedy,fifo \\
      --set nand.blocks_per_plane=256 --workload fio:rw=randwrite,bs=4k,iodepth=32,io=200000 --out sweep-waf
  scripts/sweep.py --file my-sweep.toml --out sweep-x --dry-run
  scripts/sweep.py --file my-sweep.toml --out sweep-x --scheduler tcp://head:8786
  scripts/sweep.py --file my-sweep.toml --out sweep-x --slurm --slurm-partition debug --slurm-jobs 4
  scripts/sweep.py --plot-only --out sweep-waf
The store: OUT/results.parquet and OUT/results.csv (one row per run); the plots: OUT/plots/index.html
(one PNG per figure, the swept key on the x axis); docs/sweeps.md."""
# Options that define runs: --plot-only draws the store's rows, whatever defined them.
DEFINING = ("file", "grid", "zip", "set", "platform", "workload", "repeats", "seed_key", "dry_run", "no_plots")


def binary_path(text):
    b = Path(text)
    if not b.is_file():
        raise SweepInputError(f"--binary {b}: no ssdvp binary there (build it: scripts/setup.sh)")
    return b.resolve()


def plan_all(specs, binary):
    """(schema, planned runs); raises SweepInputError on the first bad key or value."""
    schema = ConfigSchema.from_binary(binary)
    return schema, [plan(s, schema, binary) for s in specs]


def print_dry_run(planned, store, binary, stream=sys.stdout):
    runs = unique_runs(planned)
    done = store.ok_hashes()
    for p in runs:
        cmd = " ".join(shlex.quote(c) for c in p.task(binary)["command"])
        stream.write(f"{p.hash}  {'done   ' if p.hash in done else 'to run '} {p.label()}\n    {cmd}\n")
    stream.write(f"{len(runs)} run(s), {sum(p.hash in done for p in runs)} already in {store.parquet}\n")


def execute(planned, out, args, schema, binary):
    """Runs the planned runs on the cluster args choose; returns their store rows (DataFrame)."""
    store = ResultsStore(out)
    sys.stderr.write(f"sweep: {len(unique_runs(planned))} run(s) on a {describe(args)}; store {store.parquet}\n")
    with open_client(args, out) as client:
        return run_sweep(planned, store, client, schema, binary, timeout_s=getattr(args, "timeout", None),
                         state_cache=state_cache_dir(args, out))


def parser():
    ap = argparse.ArgumentParser(prog="sweep.py", description=__doc__, epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", help="TOML sweep file (grid, zip, set, workloads, repeats: docs/sweeps.md)")
    ap.add_argument("--grid", action="append", metavar="KEY=V1,V2", help="vary KEY (cartesian product; repeatable)")
    ap.add_argument("--zip", action="append", metavar="KEY=V1,V2", help="vary keys together (equal lengths)")
    ap.add_argument("--set", action="append", metavar="KEY=VALUE", help="a setting of every run")
    ap.add_argument("--platform", default="", help="platform TOML (path or name under platforms/)")
    ap.add_argument("--workload", action="append", help="workload spec or trace (repeatable: one sweep each)")
    ap.add_argument("--repeats", type=int, default=None, help="runs per point with seeds 1..N of --seed-key")
    ap.add_argument("--seed-key", default=None, help="the key repeats vary (default sim.seed)")
    ap.add_argument("--out", default="sweep-out", help="sweep folder: the store and runs/ (default sweep-out)")
    ap.add_argument("--binary", default=str(DEFAULT_BINARY), help="ssdvp binary (default build/platforms/ssdvp)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds after which a run is killed")
    ap.add_argument("--dry-run", action="store_true", help="print the runs and their commands; run nothing")
    ap.add_argument("--no-plots", action="store_true", help="do not draw OUT/plots after the sweep")
    ap.add_argument("--plot-only", action="store_true",
                    help="redraw OUT/plots from the store in --out; run nothing (no sweep options with it)")
    add_cluster_options(ap)
    return ap


def interrupt(signum, frame):
    raise KeyboardInterrupt


def in_plan_order(frame, planned):
    """The rows in the order of the planned runs (the sweep's order of values)."""
    rank = {p.hash: i for i, p in enumerate(unique_runs(planned))}
    order = frame["hash"].map(rank).fillna(len(rank))
    return frame.loc[order.sort_values(kind="stable").index]


def draw_plots(frame, out, definition=None):
    """Draws OUT/plots and prints where (or why there is nothing to draw)."""
    from .plots import plot_sweep      # matplotlib: only when drawing
    print(plot_sweep(frame, Path(out) / "plots", definition).summary())


def plot_only(args):
    given = [f"--{name.replace('_', '-')}" for name in DEFINING if getattr(args, name)]
    if given:
        raise SweepInputError(f"--plot-only redraws the store in --out alone: drop {', '.join(given)} "
                              "(the store's rows say what varied)")
    from .plots import load_store
    draw_plots(load_store(args.out), args.out)
    return 0


def main(argv=None):
    args = parser().parse_args(argv)
    signal.signal(signal.SIGTERM, interrupt)   # kill: the store is flushed and the cluster closed
    try:
        if args.plot_only:
            return plot_only(args)
        binary = binary_path(args.binary)
        definition = definition_from_args(args)
        schema, planned = plan_all(definition.runs(), binary)
        if args.dry_run:
            print_dry_run(planned, ResultsStore(args.out), binary)
            return 0
        frame = execute(planned, args.out, args, schema, binary)
    except SweepInputError as e:
        sys.stderr.write(f"sweep: {e}\n")
        return e.exit_status
    except KeyboardInterrupt:
        sys.stderr.write(f"sweep: interrupted; finished runs are kept in {Path(args.out) / 'results.parquet'}\n")
        return 130
    failed = frame[frame["status"] != "ok"]
    for _, row in failed.iterrows():
        sys.stderr.write(f"sweep: FAILED {row['label']}: {row['status']}: {row['error']}\n")
    print(Path(args.out) / "results.parquet")
    if not args.no_plots:
        try:
            draw_plots(in_plan_order(frame, planned), args.out, definition)
        except KeyboardInterrupt:
            sys.stderr.write(f"sweep: interrupted while drawing; the store is complete "
                             f"(scripts/sweep.py --plot-only --out {args.out} draws the plots)\n")
            return 130
    return 1 if len(failed) else 0
