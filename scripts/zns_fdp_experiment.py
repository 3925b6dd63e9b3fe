#!/usr/bin/env python3
"""The host-managed interfaces' study: a CacheLib-like mix (a small object cache of random 4 KiB
writes beside a large object cache written as a log, or rewriting its regions out of order) at
50% and 100% utilization and a hot/cold mix, on the default geometry as a conventional drive,
with Flexible Data Placement (each cache to its own handle) and as ZNS under a log-structured
host FTL, run through the sweep engine (scripts/ssdvp_sweep: Dask, results
store), with the test suite's checks and the report in docs/results. What it runs and checks:
scripts/ssdvp_sweep/experiments/zns_fdp.py; the report: zns_fdp_report.py.

  scripts/zns_fdp_experiment.py [--build build] [--scale full|scaled] [--only SCHEME]
                                [--out DIR] [--fresh] [--report docs/results] [--report-only]
                                [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/zns_fdp_experiment.py --check DIR     # the suite's assertions on DIR's runs

full: 16 GiB drive, 12 runs (the cachelib mix at 50% and 100%, its regions variant at 50%, the
hot/cold mix; about 45 min on 2 cores); scaled: 2 GiB, 9 runs of 3 drive capacities (ctest -R
zns-fdp, about 100 s).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("zns-fdp", __doc__))
