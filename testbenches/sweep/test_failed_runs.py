"""Failed runs are recorded, named, and never taken for results (issue 19, point 3): in a sweep
where one run fails ssdvp's cross-key check (exit 2) and one stops part-way (exit 3, with a
run.json that says completed=false), those rows carry their status, exit code and stderr tail,
a stale run.json left in a failed run's folder by an earlier sweep is not read, the other runs
complete with figures, and sweep.py exits 1 naming each failed run.  An experiment whose runs
fail names each and draws no finding from them (it used to stop with a traceback when a
finding read a figure a failed run does not have)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from sweep_test_support import BINARY, ROOT, SMALL, load_store, sweep, writes

GOOD = writes(20000)
# More host threads than the host model runs: found once the platform is up (a malformed
# workload would be refused before, with exit 2).
STOPS_PART_WAY = "fio:rw=randread,bs=4k,iodepth=1,io=1,numjobs=5000"


class FailedRunsAreRecorded(unittest.TestCase):
    def test_failures_recorded_others_complete(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "sweep"
            args = ["--workers", 2, "--grid", "ftl.gc_low_blocks=2,9", "--set", "ftl.gc_high_blocks=5", *SMALL,
                    "--workload", GOOD, "--workload", STOPS_PART_WAY, "--out", out]
            dry = sweep(*args, "--dry-run")
            self.assertEqual(dry.returncode, 0, dry.stderr)
            hashes = {}
            for line in dry.stdout.splitlines():
                if line[:1].isalnum() and "ftl.gc_low_blocks" in line:
                    hashes.setdefault(line.split()[3], []).append(line.split()[0])
            self.assertEqual(len(hashes["ftl.gc_low_blocks=9"]), 2, dry.stdout)
            # A good run.json where the bad-input run's results would go: an earlier sweep's leftover.
            first = sweep("--grid", "ftl.gc_low_blocks=2", "--set", "ftl.gc_high_blocks=5", *SMALL,
                          "--workload", GOOD, "--out", Path(tmp) / "earlier")
            self.assertEqual(first.returncode, 0, first.stderr)
            earlier = next((Path(tmp) / "earlier" / "runs").iterdir()) / "run.json"
            stale = out / "runs" / hashes["ftl.gc_low_blocks=9"][0]
            stale.mkdir(parents=True)
            shutil.copy(earlier, stale / "run.json")

            r = sweep(*args)
            self.assertEqual(r.returncode, 1, r.stderr)
            store = load_store(out)
            self.assertEqual(len(store), 4)
            by = {(row["config.ftl.gc_low_blocks"], row["workload"].split(";")[-1]): row for _, row in store.iterrows()}
            ok = by[(2, GOOD)]
            self.assertEqual(ok["status"], "ok", ok["error"])
            self.assertGreater(ok["total.iops"], 0)
            stopped = by[(2, STOPS_PART_WAY.split(";")[-1])]
            self.assertEqual((stopped["status"], stopped["exit_code"]), ("not-completed", 3))
            self.assertFalse(stopped["completed"])
            self.assertIn("5000 streams", stopped["error"] + json.dumps(stopped.get("errors", "")))
            for wl in (GOOD, STOPS_PART_WAY.split(";")[-1]):
                bad = by[(9, wl)]
                self.assertEqual((bad["status"], bad["exit_code"]), ("bad-input", 2))
                self.assertIn("gc_high_blocks", bad["error"])
                self.assertTrue(bad["total.iops"] != bad["total.iops"], "a failed run must have no figures")
            self.assertFalse((stale / "run.json").exists(), "the stale run.json must not survive as this run's")
            self.assertEqual(r.stderr.count("FAILED"), 3, r.stderr)
            self.assertIn("bad-input", r.stderr)

    def test_experiment_with_failed_runs_names_them_and_draws_no_finding(self):
        with tempfile.TemporaryDirectory() as tmp:
            # A stand-in ssdvp: answers what the sweep asks before it runs, fails every run.
            stand_in = Path(tmp) / "ssdvp"
            stand_in.write_text(f'#!/bin/sh\n[ "$1" = run ] || exec {BINARY} "$@"\n'
                                'echo "stand-in ssdvp: fails on purpose" >&2\nexit 3\n')
            os.chmod(stand_in, 0o755)
            r = subprocess.run([sys.executable, str(ROOT / "scripts" / "ptsd_experiment.py"), "--scale", "scaled",
                                "--binary", str(stand_in), "--out", str(Path(tmp) / "out"), "--workers", "1"],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertNotIn("Traceback", r.stderr)
            for tag in ("paper/dftl", "paper/part", "adapt-write/adaptive"):
                self.assertIn(f"{tag}: run failed (not-completed: stand-in ssdvp: fails on purpose)", r.stderr)
            self.assertIn("(no findings: runs missing)", r.stdout)


if __name__ == "__main__":
    unittest.main()
