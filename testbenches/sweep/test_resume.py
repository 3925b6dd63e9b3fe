"""Resumable sweeps: a sweep of 12 runs killed (SIGTERM) after some finished keeps them in the
store; started again with the same command it skips exactly those (same hashes, untouched rows)
and runs only the missing ones; a third start runs nothing."""
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from sweep_test_support import BINARY, SMALL, SWEEP, load_store, writes


class ResumeSkipsFinishedRuns(unittest.TestCase):
    def test_kill_and_restart(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "sweep"
            cmd = [sys.executable, str(SWEEP), "--binary", str(BINARY), "--workers", "1",
                   "--grid", "ftl.op=0.1,0.12,0.14,0.16,0.18,0.2,0.22,0.24,0.26,0.28,0.3,0.32", *SMALL, "--workload", writes(100000), "--out", str(out)]
            first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            deadline = time.time() + 120
            while time.time() < deadline:
                time.sleep(0.2)
                try:
                    if (load_store(out)["status"] == "ok").sum() >= 2:
                        break
                except (OSError, ValueError):
                    pass
            first.send_signal(signal.SIGTERM)
            _, err = first.communicate(timeout=60)
            self.assertEqual(first.returncode, 130, err)
            before = load_store(out)
            finished = set(before.loc[before["status"] == "ok", "hash"])
            self.assertGreaterEqual(len(finished), 2, err)
            self.assertLess(len(finished), 12, "the sweep should have been killed before its end")

            second = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            self.assertEqual(second.returncode, 0, second.stderr)
            self.assertIn(f"{len(finished)} run(s) already in the store, skipped", second.stderr)
            executed = re.findall(r"^\[\d+/(\d+)\] ok", second.stderr, re.M)
            self.assertEqual(len(executed), 12 - len(finished), second.stderr)
            after = load_store(out)
            self.assertEqual(len(after), 12)
            self.assertTrue((after["status"] == "ok").all())
            kept = after[after["hash"].isin(finished)].set_index("hash")["finished_at"]
            self.assertTrue((kept == before[before["hash"].isin(finished)].set_index("hash")["finished_at"]).all(),
                            "finished runs must not run again")

            third = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            self.assertEqual(third.returncode, 0, third.stderr)
            self.assertIn("12 run(s) already in the store, skipped", third.stderr)
            self.assertIsNone(re.search(r"^\[\d+/\d+\]", third.stderr, re.M), third.stderr)


if __name__ == "__main__":
    unittest.main()
