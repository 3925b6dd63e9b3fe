#!/usr/bin/env python3
"""Real drives as presets: each preset of platforms/ (Samsung 960 PRO, 970 EVO Plus, 980 PRO,
Intel DC P4500) runs its datasheet's workloads, through the sweep engine (scripts/ssdvp_sweep:
Dask, results store, the drive-state cache), with the test suite's checks and the report in
docs/results. What it runs and checks: scripts/ssdvp_sweep/experiments/presets.py; the report:
presets_report.py.

  scripts/presets_experiment.py [--build build] [--scale full|scaled] [--experiment PRESET,...]
                                [--only FIGURE] [--out DIR] [--fresh] [--report docs/results]
                                [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/presets_experiment.py --check DIR [--experiment PRESET]   # the suite's assertions

full: the 1 TB presets as shipped (about 6 GB of host memory a run: use --workers 1 or 2);
scaled: nand.blocks_per_plane shrunk (ctest -R presets, one test per preset).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("presets", __doc__))
