"""plot_waf.py reads the sweep's store and refuses runs that are not measurements (issue 19,
point 3): on a real two-point WAF sweep it draws the plot and prints measured against model;
after failed runs join the same store it exits 1 naming each, and draws nothing."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from sweep_test_support import ROOT, SMALL, sweep, writes

PLOT = ROOT / "scripts" / "plot_waf.py"
WAF = [*SMALL, "--set", "precondition.fill=1", "--set", "precondition.overwrite=1", "--set", "nand.channels=2",
       "--set", "nand.ways=1", "--set", "nand.mlc.pages_per_block=64", "--set", "dram.size_mib=64"]


class PlotWafRefusesFailedRuns(unittest.TestCase):
    def test_plots_good_runs_refuses_failed(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, png = Path(tmp) / "sweep", Path(tmp) / "waf.png"
            r = sweep("--grid", "ftl.op=0.1,0.3", *WAF, "--workload", writes(20000), "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            plot = subprocess.run([sys.executable, str(PLOT), str(out), str(png)], capture_output=True, text=True)
            self.assertEqual(plot.returncode, 0, plot.stderr)
            self.assertTrue(png.exists())
            self.assertEqual(len(plot.stdout.splitlines()), 2, plot.stdout)
            self.assertIn("op=0.10 waf=", plot.stdout)
            png.unlink()
            r = sweep("--grid", "ftl.op=0.2,0.4", *WAF, "--set", "ftl.gc_low_blocks=9", "--set", "ftl.gc_high_blocks=5",
                      "--workload", writes(20000), "--out", out)
            self.assertEqual(r.returncode, 1, r.stderr)
            plot = subprocess.run([sys.executable, str(PLOT), str(out), str(png)], capture_output=True, text=True)
            self.assertEqual(plot.returncode, 1, plot.stderr)
            self.assertIn("ftl.op=0.2: bad-input", plot.stderr)
            self.assertIn("ftl.op=0.4: bad-input", plot.stderr)
            self.assertFalse(png.exists())


if __name__ == "__main__":
    unittest.main()
