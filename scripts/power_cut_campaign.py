#!/usr/bin/env python3
"""The power-cut campaign: random power cuts (and second cuts during recovery) over a workload
of random writes, flushes and FUA writes with GC active, for every mapping scheme and write-buffer
kind, each followed by recovery and a read-back of every sector against what was durable, run
through the sweep engine (scripts/ssdvp_sweep: Dask, results store). What it runs and checks:
scripts/ssdvp_sweep/experiments/power_cut.py; the contract: docs/reliability.md.

  scripts/power_cut_campaign.py [--build build] [--scale full|scaled] [--only SCHEME]
                                [--experiment all|checked|mix,recovery,trim] [--out DIR] [--fresh]
                                [--report docs/results] [--report-only]
                                [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/power_cut_campaign.py --check DIR     # the suite's assertions on DIR's runs

full: 1,104 cuts (about 95 minutes on 2 cores); scaled: 28 (ctest -R power-cut runs
--experiment checked: every part is checked, all 28).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("power-cut", __doc__, "power_cut_campaign.py"))
