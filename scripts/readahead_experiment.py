#!/usr/bin/env python3
"""Predictive read-ahead: hit ratio, flash reads and read latency of an LRU read cache, the
decision-tree read-ahead (dTree), both (dTree+LRU) and next-N sequential read-ahead against no
read cache, on the paper's ratio-of-random workload and on the sample traces and fio streams,
run through the sweep engine (scripts/ssdvp_sweep: Dask, results store), with the test suite's
checks and the report in docs/results. What it runs and checks:
scripts/ssdvp_sweep/experiments/readahead.py; the report: readahead_report.py.

  scripts/readahead_experiment.py [--build build] [--scale full|scaled] [--only POLICY]
                                  [--experiment all|checked|rr|mixes] [--out DIR] [--fresh]
                                  [--report docs/results] [--report-only]
                                  [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/readahead_experiment.py --check DIR     # the suite's assertions on DIR's runs

full: RR 0..100 by 10 at 100,000 requests and the mixes (130 runs, a few minutes on 2 cores);
scaled: RR 0, 50, 100 at 20,000 (ctest -R readahead runs --experiment checked: the rr part).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("readahead", __doc__))
