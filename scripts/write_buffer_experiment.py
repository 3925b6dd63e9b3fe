#!/usr/bin/env python3
"""The Open-Channel SSD write-buffer / thread study: fio-like threads (2 ... 72, QD 1 each)
against pblk's ring write buffer (32 ... 256 MiB) on platforms/ocssd.toml, random read, random
write, sequential write and a read/write mix, with pblk on 72 host CPUs over the Open-Channel
device (the paper's setting, part host) and with the ring in a device FTL (the other parts), run
through the sweep engine (scripts/ssdvp_sweep: Dask, results store), with the test suite's checks
and the report in docs/results. What it runs and checks:
scripts/ssdvp_sweep/experiments/write_buffer.py; the report: write_buffer_report.py.

  scripts/write_buffer_experiment.py [--build build] [--scale full|scaled] [--only MIB]
                                     [--experiment all|checked|host|randread|randwrite|seqwrite|mixed|wbcost]
                                     [--out DIR] [--fresh] [--report docs/results] [--report-only]
                                     [--workers N | --scheduler tcp://H:P | --slurm ...]
  scripts/write_buffer_experiment.py --check DIR     # the suite's assertions on DIR's runs

full: 7 thread counts x 4 buffers x 3 workloads and the mixes in each setting (92 runs each),
and the host's write-back what-if (21 runs); scaled: random read at 2, 18, 54, 72 threads and the
mix at 32 and 256 MiB in each setting, host random write at 18 and 36 threads (14 runs,
ctest -R write-buffer).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()
from ssdvp_sweep.experiment_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("write-buffer", __doc__))
