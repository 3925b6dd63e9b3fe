"""Runs of one preconditioned drive share a drive-state snapshot (engine.py, --state-cache): a
sweep of three workloads and two workload seeds on one small drive preconditions it once (one
run saves, the others load, one snapshot in OUT/drive-states), and every run's simulated figures
equal those of the same `ssdvp run` without any snapshot; --no-state-cache preconditions every
run itself; runs of two different drives do not share; runs over an Open-Channel device (a host
FTL, which has no snapshots) each precondition their own drive."""
import json
import subprocess
import tempfile
import unittest
from pathlib import Path

from sweep_test_support import BINARY, load_store, simulated_figures, sweep

from ssdvp_sweep.flatten import flatten_run

DRIVE = ["--set", "nand.blocks_per_plane=64", "--set", "precondition.overwrite=0.5"]
WORKLOADS = ["fio:rw=randread,bs=4k,iodepth=32,io=5000", "fio:rw=randwrite,bs=4k,iodepth=32,io=5000",
             "fio:rw=randrw,bs=4k,iodepth=16,io=5000"]


def drive_state(row):
    return {k: v for k, v in row.items() if k.startswith("drive_state.") and isinstance(v, str) and v}


class StateCache(unittest.TestCase):
    def test_runs_of_one_drive_precondition_it_once_and_give_the_uncached_figures(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "sweep"
            args = ["--workers", 2, *DRIVE, "--grid", "sim.seed=1,2", "--out", out]
            for w in WORKLOADS:
                args += ["--workload", w]
            r = sweep(*args)
            self.assertEqual(r.returncode, 0, r.stderr)
            store = load_store(out)
            self.assertEqual(len(store), 6)
            self.assertTrue((store["status"] == "ok").all(), store[["label", "status", "error"]])
            saved = store["drive_state.saved"].fillna("").astype(bool) if "drive_state.saved" in store else None
            loaded = store["drive_state.loaded"].fillna("").astype(bool) if "drive_state.loaded" in store else None
            self.assertIsNotNone(saved, list(store.columns))
            self.assertIsNotNone(loaded, list(store.columns))
            self.assertEqual(int(saved.sum()), 1, "one run preconditions and saves the drive")
            self.assertEqual(int(loaded.sum()), 5, "the other five load it")
            snapshots = [p for p in (out / "drive-states").iterdir() if (p / "snapshot.json").exists()]
            self.assertEqual(len(snapshots), 1, [p.name for p in (out / "drive-states").iterdir()])

            for _, row in store.iterrows():
                row = row.to_dict()
                serial_dir = Path(tmp) / f"serial-{row['hash']}"
                subprocess.run([str(BINARY), "run", "--quiet", "--out", str(serial_dir), *DRIVE,
                                "--set", f"sim.seed={int(row['config.sim.seed'])}", "--set", "sim.progress=false",
                                "--workload", row["workload"]], check=True, capture_output=True)
                serial = simulated_figures(flatten_run(json.loads((serial_dir / "run.json").read_text())))
                compared = 0
                for key, value in serial.items():
                    if key.startswith("drive_state") or "." not in key or key.startswith("config."):
                        continue
                    stored = row[f"run.{key}"] if f"run.{key}" in row else row.get(key)
                    self.assertEqual(stored, value, f"{key} of {row['workload']} seed {row['config.sim.seed']}")
                    compared += 1
                self.assertGreater(compared, 50)

    def test_without_the_cache_and_across_drives(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "plain"
            r = sweep("--workers", 2, *DRIVE, "--grid", "sim.seed=1,2", "--workload", WORKLOADS[0], "--out", out,
                      "--no-state-cache")
            self.assertEqual(r.returncode, 0, r.stderr)
            store = load_store(out)
            self.assertFalse(any(k.startswith("drive_state.") for k in store.columns), list(store.columns))
            self.assertFalse((out / "drive-states").exists())

            out = Path(tmp) / "two-drives"
            r = sweep("--workers", 2, *DRIVE, "--grid", "ftl.op=0.1,0.2", "--grid", "sim.seed=1,2",
                      "--workload", WORKLOADS[0], "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            store = load_store(out)
            self.assertEqual(int(store["drive_state.saved"].fillna("").astype(bool).sum()), 2)
            self.assertEqual(int(store["drive_state.loaded"].fillna("").astype(bool).sum()), 2)
            for op in (0.1, 0.2):   # each drive's second run loaded that drive's own snapshot
                rows = store[store["config.ftl.op"] == op]
                self.assertEqual(rows["drive_state.key"].nunique(), 1)
            self.assertEqual(store["drive_state.key"].nunique(), 2)

    def test_host_ftl_runs_precondition_their_own_drive(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "host-ftl"
            r = sweep("--workers", 2, "--platform", "mtftl-femu", "--set", "precondition.mode=timed",
                      "--set", "precondition.fill=0.02", "--set", "precondition.overwrite=0",
                      "--grid", "sim.seed=1,2", "--workload", "fio:rw=randread,bs=4k,iodepth=4,io=2000", "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            store = load_store(out)
            self.assertEqual(len(store), 2)
            self.assertTrue((store["status"] == "ok").all(), store[["label", "status", "error"]])
            self.assertFalse(any(k.startswith("drive_state.") for k in store.columns), list(store.columns))
            self.assertFalse((out / "drive-states").exists())


if __name__ == "__main__":
    unittest.main()
