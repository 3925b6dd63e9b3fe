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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("ptsd", __doc__))
