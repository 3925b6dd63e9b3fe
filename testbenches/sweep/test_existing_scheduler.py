"""--scheduler on an existing Dask cluster, prepared the way docs/sweeps.md says: a scheduler
process and a worker process of 2 single-thread workers (python -m distributed.cli.dask_scheduler
/ dask_worker, on 127.0.0.1); sweep.py --scheduler runs 3 runs there, all ok, on those workers,
with the figures of the same runs on a LocalCluster."""
import json
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

import psutil
from sweep_test_support import SMALL, assert_same_figures, load_store, sweep, writes

GRID = ["--grid", "ftl.op=0.1,0.2,0.3", *SMALL, "--workload", writes(20000)]


class SweepOnExistingScheduler(unittest.TestCase):
    def test_runs_on_the_given_cluster(self):
        with tempfile.TemporaryDirectory() as tmp:
            info = Path(tmp) / "scheduler.json"
            scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                          "--port", "0", "--no-dashboard", "--scheduler-file", str(info)],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            worker = None
            try:
                for _ in range(100):
                    if info.exists() and info.stat().st_size:
                        break
                    time.sleep(0.1)
                address = json.loads(info.read_text())["address"]
                worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "2",
                                           "--nthreads", "1", "--memory-limit", "0", "--no-dashboard",
                                           "--host", "127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                out, local = Path(tmp) / "remote", Path(tmp) / "local"
                r = sweep("--scheduler", address, *GRID, "--out", out)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn(f"existing Dask cluster at {address}", r.stderr)
                remote = load_store(out).set_index("hash")
                self.assertTrue((remote["status"] == "ok").all(), remote[["label", "status", "error"]])
                worker_pids = {c.pid for c in psutil.Process(worker.pid).children(recursive=True)}
                ran_on = {int(w.rsplit(":", 1)[1]) for w in remote["worker"]}
                self.assertTrue(ran_on <= worker_pids, f"runs came from {ran_on}, not the cluster's workers {worker_pids}")
                r = sweep("--workers", 1, *GRID, "--out", local)
                self.assertEqual(r.returncode, 0, r.stderr)
                assert_same_figures(self, remote, load_store(local).set_index("hash"))
            finally:
                for p in (worker, scheduler):
                    if p:
                        p.terminate()
                        try:
                            p.wait(timeout=20)
                        except subprocess.TimeoutExpired:
                            p.kill()


if __name__ == "__main__":
    unittest.main()
