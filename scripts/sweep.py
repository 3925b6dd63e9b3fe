#!/usr/bin/env python3
"""Runs ssdvp over a parameter sweep on Dask (a LocalCluster by default, an existing cluster
with --scheduler, or Slurm with --slurm) into a results store (OUT/results.parquet and .csv,
one row per run, keyed by a content hash: runs already there are not run again), then draws
each swept key against each figure into OUT/plots (PNGs and index.html; --no-plots: not).

  scripts/sweep.py --grid ftl.op=0.07,0.2,0.4 --workload fio:rw=randwrite,bs=4k,iodepth=32,io=100000
  scripts/sweep.py --file sweep.toml --out sweep-x [--dry-run] [--workers N | --scheduler ... | --slurm ...]
  scripts/sweep.py --plot-only --out sweep-x      # redraw OUT/plots from the store; run nothing

docs/sweeps.md has the sweep file, the store's columns, the plots and cluster set-up; the engine
is scripts/ssdvp_sweep/.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
