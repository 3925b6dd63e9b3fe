"""Bad sweep input fails at once, before anything is submitted: an unknown key, a value of the
wrong type or out of range (even when the other values of the grid are good), a malformed
--grid or --zip, a malformed or unknown-keyed TOML sweep file, a missing platform or trace.
Each exits with status 2, names the input, runs nothing and writes no store. A good sweep
file's --dry-run lists its runs (grid x zip x workloads x repeats) and runs nothing."""
import tempfile
import time
import unittest
from pathlib import Path

from sweep_test_support import SMALL, sweep, writes


class BadInputFailsBeforeSubmission(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.out = self.dir / "sweep"

    def tearDown(self):
        self.tmp.cleanup()

    def refused(self, *args, names):
        t0 = time.time()
        r = sweep(*args, "--out", self.out, "--workload", writes(20000))
        self.assertEqual(r.returncode, 2, f"{args}: {r.stderr}")
        for name in names:
            self.assertIn(name, r.stderr, args)
        self.assertFalse((self.out / "results.parquet").exists(), f"{args}: nothing may run")
        self.assertFalse((self.out / "runs").exists(), f"{args}: nothing may run")
        self.assertLess(time.time() - t0, 20, f"{args}: must fail at once")

    def sweep_file(self, text):
        path = self.dir / "sweep.toml"
        path.write_text(text)
        return path

    def test_unknown_key(self):
        self.refused("--grid", "ftl.op=0.1,0.2", "--grid", "ftl.bogus=1,2", names=["ftl.bogus", "unknown"])

    def test_bad_values_anywhere_in_the_grid(self):
        self.refused("--grid", "ftl.op=0.1,0.2,5", names=["ftl.op", "outside"])
        self.refused("--grid", "nand.channels=4,x", names=["nand.channels", "'x'", "integer"])
        self.refused("--set", "ftl.mapping=nope", names=["ftl.mapping", "nope"])

    def test_malformed_options(self):
        self.refused("--grid", "ftl.op", names=["--grid ftl.op", "key=v1,v2"])
        self.refused("--grid", "ftl.op=0.1,,0.2", names=["--grid ftl.op=0.1,,0.2", "empty value"])
        self.refused("--zip", "nand.channels=4,8", "--zip", "nand.ways=4", names=["nand.channels has 2", "nand.ways has 1"])
        self.refused("--grid", "ftl.op=0.1", "--zip", "ftl.op=0.2", names=["ftl.op", "swept twice"])
        self.refused("--platform", "no-such-board", names=["no-such-board"])
        self.refused("--workload", "/no/such.trace", names=["/no/such.trace"])

    def test_malformed_sweep_files(self):
        f = self.sweep_file("[grid]\n\"ftl.op\" = [0.1, 0.2\n")
        self.refused("--file", f, names=[str(f)])
        f = self.sweep_file("grd = 1\n")
        self.refused("--file", f, names=[str(f), "grd"])
        f = self.sweep_file("[grid]\n\"ftl.op\" = 0.1\n")
        self.refused("--file", f, names=[str(f), "ftl.op", "list"])
        f = self.sweep_file("[grid.ftl]\nopx = [0.1]\n")
        self.refused("--file", f, names=[str(f), "ftl.opx"])
        f = self.sweep_file("[set]\n\"ftl.op\" = \"high\"\n")
        self.refused("--file", f, names=[str(f), "ftl.op", "high"])

    def test_dry_run_lists_the_runs(self):
        f = self.sweep_file('workloads = ["%s", "%s"]\nrepeats = 2\n[grid]\n"ftl.op" = [0.1, 0.2]\n'
                            '[zip]\n"nand.channels" = [4, 8]\n"nand.ways" = [8, 4]\n' % (writes(1000), writes(2000)))
        r = sweep("--file", f, *SMALL, "--dry-run", "--out", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("16 run(s), 0 already in", r.stdout)      # 2 grid x 2 zip x 2 workloads x 2 seeds
        self.assertIn("--set nand.channels=8 --set nand.ways=4 --set sim.seed=2", r.stdout)
        self.assertFalse(self.out.exists())


if __name__ == "__main__":
    unittest.main()
