"""ptsd_experiment.py --check refuses what it cannot check (issue 19, point 3): on a copy of the
scaled experiment's real store (argument: the folder ptsd.scaled.runs wrote), the complete store
passes; with the adapt-read/adapt-write runs missing it fails naming each missing run (it used
to skip those checks and print "passed"); with one run failed or not completed it fails naming
that run and its status."""
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import pandas as pd
from sweep_test_support import ROOT

from ssdvp_sweep.store import ResultsStore

PTSD = ROOT / "scripts" / "ptsd_experiment.py"
SOURCE = Path(sys.argv.pop(1)) if len(sys.argv) > 1 else ROOT / "build" / "ptsd-test"


def check(folder):
    return subprocess.run([sys.executable, str(PTSD), "--check", str(folder)], capture_output=True, text=True)


class PtsdCheckRefusesMissingAndFailedRuns(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.store = Path(self.tmp.name) / "store"
        self.store.mkdir()
        for name in ("results.parquet", "ptsd.manifest.json"):
            shutil.copy(SOURCE / name, self.store / name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_complete_store_passes(self):
        r = check(self.store)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("passed", r.stdout)

    def test_missing_adaptive_runs_are_named(self):
        store = ResultsStore(self.store)
        manifest = store.read_manifest("ptsd")
        kept = {t: h for t, h in manifest.items() if t.startswith("paper/")}
        (self.store / "ptsd.manifest.json").write_text(json.dumps(kept))
        r = check(self.store)
        self.assertEqual(r.returncode, 1, r.stdout)
        for tag in ("adapt-read/writeopt", "adapt-read/adaptive", "adapt-write/writeopt", "adapt-write/adaptive"):
            self.assertIn(f"FAIL: {tag}: run missing", r.stdout)
        self.assertNotIn("checks (paper, adapt-read, adapt-write): passed", r.stdout)

    def test_failed_and_incomplete_runs_are_named(self):
        df = pd.read_parquet(self.store / "results.parquet")
        manifest = ResultsStore(self.store).read_manifest("ptsd")
        df.loc[df["hash"] == manifest["paper/dftl"], "status"] = "not-completed"
        df.loc[df["hash"] == manifest["adapt-write/adaptive"], "completed"] = False
        df.to_parquet(self.store / "results.parquet", index=False)
        r = check(self.store)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("FAIL: paper/dftl: run failed (not-completed", r.stdout)
        self.assertIn("FAIL: adapt-write/adaptive: run did not complete", r.stdout)


if __name__ == "__main__":
    unittest.main()
