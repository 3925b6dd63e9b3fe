"""A grid of 6 small runs on a real LocalCluster of 2 worker processes gives the same simulated
figures, run for run, as ssdvp run one by one without Dask; both workers take part."""
import json
import subprocess
import tempfile
import unittest
from pathlib import Path

from sweep_test_support import BINARY, SMALL, load_store, simulated_figures, sweep

from ssdvp_sweep.flatten import flatten_run

WORKLOAD = "fio:rw=randwrite,bs=4k,iodepth=32,io=40000;fio:rw=randread,bs=4k,iodepth=32,io=20000"
OPS = ["0.1", "0.2", "0.3"]
POLICIES = ["greedy", "fifo"]


class LocalClusterMatchesSerial(unittest.TestCase):
    def test_grid_on_two_workers_equals_serial_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "sweep"
            r = sweep("--workers", 2, "--grid", "ftl.op=" + ",".join(OPS), "--grid", "ftl.gc_policy=" + ",".join(POLICIES),
                      *SMALL, "--workload", WORKLOAD, "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            store = load_store(out)
            self.assertEqual(len(store), 6)
            self.assertTrue((store["status"] == "ok").all(), store[["label", "status", "error"]])
            self.assertEqual(store["worker"].nunique(), 2, "both LocalCluster workers should have run tasks")
            for op in OPS:
                for policy in POLICIES:
                    serial_dir = Path(tmp) / f"serial-{op}-{policy}"
                    subprocess.run([str(BINARY), "run", "--quiet", "--out", str(serial_dir), *SMALL,
                                    "--set", f"ftl.op={op}", "--set", f"ftl.gc_policy={policy}",
                                    "--set", "sim.progress=false", "--workload", WORKLOAD],
                                   check=True, capture_output=True)
                    serial = simulated_figures(flatten_run(json.loads((serial_dir / "run.json").read_text())))
                    rows = store[(store["config.ftl.op"] == float(op)) & (store["config.ftl.gc_policy"] == policy)]
                    self.assertEqual(len(rows), 1, f"ftl.op={op} ftl.gc_policy={policy}")
                    row = rows.iloc[0].to_dict()
                    for key, value in serial.items():
                        stored = row[f"run.{key}"] if f"run.{key}" in row else row.get(key)
                        self.assertEqual(stored, value, f"{key} of ftl.op={op} ftl.gc_policy={policy}")
            self.assertGreater(store["total.iops"].nunique(), 1, "the grid should change the figures")


if __name__ == "__main__":
    unittest.main()
