#!/usr/bin/env python3
"""The LAPT paper's experiment on the platform, run through the sweep engine (scripts/ssdvp_sweep:
Dask, results store), with the test suite's checks and the report in docs/results. What it
runs and checks: scripts/ssdvp_sweep/experiments/lapt.py; the report: lapt_report.py.

  scripts/lapt_experiment.py [--build build] [--scale full|scaled]
                             [--experiment all|checked|total,slc-sweep,cache,tie-order,eight-die] [--only SCHEME]
                             [--out DIR] [--fresh] [--report docs/results] [--report-only]
                             [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/lapt_experiment.py --check DIR [--experiment ...]   # the suite's assertions on DIR's runs

full: the paper's request counts (exchange 204,571, photoshop 23,498, random 33,740, general
300,000; tpcc-small 6,999), all parts (109 runs) about 1.5 minutes on 2 cores; scaled: half of
each, the checked parts (total, slc-sweep, cache) about 35 s (ctest -R lapt). The traces are
generated into DIR/traces. --check needs every run of the checked parts (default: total,
slc-sweep, cache) in DIR's store, each complete with clean integrity; a missing or failed run is
named and fails the check.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("lapt", __doc__))
