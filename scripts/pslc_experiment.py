#!/usr/bin/env python3
"""A pSLC write cache on a TLC drive: write throughput over a long sequential write for a plain
SLC cache, LAPT and ComboFTL on the cache and the drive without one, run through the sweep
engine (scripts/ssdvp_sweep: Dask, results store), with the test suite's checks and the report
in docs/results. What it runs and checks: scripts/ssdvp_sweep/experiments/pslc.py; the report:
pslc_report.py.

  scripts/pslc_experiment.py [--build build] [--scale full|scaled] [--only SCHEME]
                             [--out DIR] [--fresh] [--report docs/results] [--report-only]
                             [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/pslc_experiment.py --check DIR     # the suite's assertions on DIR's runs

full: 4 GiB per scheme, 4 runs, about 30 s on 2 cores; scaled: 1.5 GiB (ctest -R pslc).
--check needs every run in DIR's store, complete, with its throughput series.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("pslc", __doc__))
