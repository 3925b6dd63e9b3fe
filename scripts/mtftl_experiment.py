#!/usr/bin/env python3
"""MT-FTL task migration: 16 host threads of the paper's 8 I/O:CPU types on 4 host CPUs, with and
without greedy migration, in the paper's setting (MT-FTL on the host over an Open-Channel device)
and in a device FTL (4 queues and firmware cores, a write-buffer part each), and (full) the
migration period, the number of firmware cores and a what-if of the host FTL's costs swept, run through the sweep engine
(scripts/ssdvp_sweep: Dask, results store), with the test suite's checks and the report in
docs/results. What it runs and checks: scripts/ssdvp_sweep/experiments/mtftl.py; the report:
mtftl_report.py.

  scripts/mtftl_experiment.py [--build build] [--scale full|scaled] [--only none|greedy]
                              [--experiment all|checked|host|migration|period|cores|wbcost]
                              [--out DIR] [--fresh] [--report docs/results] [--report-only]
                              [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/mtftl_experiment.py --check DIR     # the suite's assertions on DIR's runs

full: the paper's setting, MLC and SLC with and without migration, 5 periods, 1/2/4 cores, 5
write-back costs x 2 submission costs (36 runs); scaled: the paper's setting and MLC with and
without migration (ctest -R mtftl).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("mtftl", __doc__))
