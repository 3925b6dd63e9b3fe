"""A sweep draws its swept keys against its figures (scripts/ssdvp_sweep/plots.py, issue 73 item 6):
on a real sweep of two grid keys (ftl.op numeric, ftl.gc_policy categorical), three seeds each,
OUT/plots holds valid, non-blank PNGs and an index naming each; every drawn point (read back from
the drawn lines) is the mean, min and max of the store's runs at that point; a categorical key
alone is a categorical x; a run that failed is left out and counted in every caption and named
on the index; --plot-only redraws from the store alone, refuses a folder without a store and
options that define runs (exit 2); a sweep of one point says there is nothing to draw.
About 20 s on 2 cores."""
import struct
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from sweep_test_support import ROOT, SMALL, load_store, sweep

import matplotlib.image  # noqa: E402  (the venv's; plots.py has chosen the Agg backend)
from ssdvp_sweep.plots import plot_sweep  # noqa: E402

GC = [*SMALL, "--set", "precondition.fill=1", "--set", "precondition.overwrite=1", "--set", "nand.channels=2",
      "--set", "nand.ways=1", "--set", "nand.mlc.pages_per_block=64", "--set", "dram.size_mib=64"]
MIXED = "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=32,io=20000"
OPS, POLICIES, REPEATS = (0.1, 0.3), ("greedy", "fifo"), 3
# Figures this test checks against the store, by the column it reads itself.
COLUMNS = {"waf": "waf", "total_iops": "total.iops", "read_iops": "ops.read.iops", "write_mbps": "ops.write.mbps",
           "read_latency_p99": "ops.read.latency_us.p99", "write_latency_p99.9": "ops.write.latency_us.p99.9",
           "gc_runs": "ftl.gc_runs"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def plot_only(out):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "sweep.py"), "--plot-only", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)


class SweepPlots(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)
        cls.out = cls.dir / "grid"
        cls.grid = sweep("--workers", 2, "--grid", "ftl.op=" + ",".join(map(str, OPS)),
                        "--grid", "ftl.gc_policy=" + ",".join(POLICIES), "--repeats", REPEATS, *GC,
                        "--workload", MIXED, "--out", cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.assertEqual(self.grid.returncode, 0, self.grid.stderr)

    def assert_valid_png(self, path):
        data = path.read_bytes()
        self.assertEqual(data[:8], PNG_SIGNATURE, path)
        self.assertEqual(data[12:16], b"IHDR", path)
        width, height = struct.unpack(">II", data[16:24])
        self.assertGreaterEqual((width, height), (400, 300), path)
        self.assertGreater(len(data), 15000, f"{path}: too small to hold a plot")
        pixels = matplotlib.image.imread(str(path))
        self.assertGreater(pixels[..., :3].std(), 0.05, f"{path}: blank")

    def test_sweep_draws_valid_pngs_and_an_index(self):
        plots = self.out / "plots"
        self.assertIn(str(plots / "index.html"), self.grid.stdout)
        pngs = sorted(p.name for p in plots.glob("*.png"))
        for name in COLUMNS:
            self.assertIn(f"{name}.png", pngs)
        index = (plots / "index.html").read_text()
        for name in pngs:
            self.assert_valid_png(plots / name)
            self.assertIn(f"src='{name}'", index)
        self.assertNotIn("left out", index)

    def test_drawn_points_are_the_stores_runs(self):
        store = load_store(self.out)
        self.assertEqual(len(store), len(OPS) * len(POLICIES) * REPEATS)
        drawn = {d.figure.name: d for d in plot_sweep(store, self.dir / "redraw").drawn}
        self.assertEqual(set(drawn), {p.name[:-4] for p in (self.out / "plots").glob("*.png")},
                         "the store alone and the sweep's definition should draw the same figures")
        for name, column in COLUMNS.items():
            d = drawn[name]
            self.assertEqual((d.x_axis, d.legend), ("ftl.op", "ftl.gc_policy"), name)
            self.assertEqual(sorted(d.series), sorted(f"ftl.gc_policy={p}" for p in POLICIES), name)
            for policy in POLICIES:
                label = f"ftl.gc_policy={policy}"
                points = d.series[label]
                self.assertEqual([p.x for p in points], list(OPS), name)
                for point in points:
                    runs = store[(store["config.ftl.op"] == point.x) & (store["config.ftl.gc_policy"] == policy)]
                    values = runs[column].astype(float)
                    self.assertEqual(point.runs, REPEATS, f"{name} {label} op={point.x}")
                    self.assertAlmostEqual(point.mean, values.mean(), places=9, msg=f"{name} {label}")
                    self.assertEqual((point.low, point.high), (values.min(), values.max()), f"{name} {label}")
                xs, ys = d.drawn[label]
                self.assertEqual(list(xs), list(OPS), f"{name}: the line drawn")
                self.assertEqual(list(ys), [p.mean for p in points], f"{name}: the line drawn")
        self.assertGreater(store["waf"].nunique(), 2, "the grid should change the figures")

    def test_categorical_key_alone_is_a_categorical_x(self):
        store = load_store(self.out)
        rows = store[store["config.ftl.op"] == OPS[0]]
        drawn = {d.figure.name: d for d in plot_sweep(rows, self.dir / "categorical").drawn}
        d = drawn["total_iops"]
        self.assertEqual((d.x_axis, d.legend, list(d.series)), ("ftl.gc_policy", "", [""]))
        points = d.series[""]
        self.assertEqual([p.x for p in points], sorted(POLICIES))
        for point in points:
            self.assertAlmostEqual(point.mean, rows[rows["config.ftl.gc_policy"] == point.x]["total.iops"].mean(),
                                   places=9)
        self.assertEqual(list(d.drawn[""][0]), [0, 1], "one slot per category")
        self.assert_valid_png(d.path)

    def test_failed_run_is_left_out_and_counted(self):
        out = self.dir / "failing"
        r = sweep("--workers", 2, "--grid", "ftl.gc_low_blocks=2,9", "--set", "ftl.gc_high_blocks=5", *SMALL,
                  "--workload", "fio:rw=randwrite,bs=4k,iodepth=32,io=5000", "--no-plots", "--out", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertFalse((out / "plots").exists(), "--no-plots draws nothing")
        r = plot_only(out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(str(out / "plots" / "index.html"), r.stdout)
        result = plot_sweep(load_store(out), self.dir / "failing-redraw")
        self.assertGreater(len(result.drawn), 3)
        for d in result.drawn:
            self.assertIn("1 run(s) ok", d.caption, d.figure.name)
            self.assertIn("1 of 2 run(s) left out, status not ok: bad-input 1", d.caption, d.figure.name)
            self.assertEqual([p.x for p in d.series[""]], [2.0], f"{d.figure.name}: the failed run drawn")
        index = (out / "plots" / "index.html").read_text()
        self.assertIn("1 of 2 run(s) left out, status not ok: bad-input 1", index)
        self.assertIn("ftl.gc_low_blocks=9: bad-input", index)
        # One run of the grid marked failed: counted, and its point has one run left.
        store = load_store(self.out)
        store.loc[store.index[0], "status"] = "timeout"
        gone = store.iloc[0]
        waf = next(d for d in plot_sweep(store, self.dir / "one-failed").drawn if d.figure.name == "waf")
        self.assertIn("11 run(s) ok; 1 of 12 run(s) left out, status not ok: timeout 1", waf.caption)
        point = next(p for p in waf.series[f"ftl.gc_policy={gone['config.ftl.gc_policy']}"]
                     if p.x == gone["config.ftl.op"])
        self.assertEqual(point.runs, REPEATS - 1)

    def test_plot_only_redraws_and_refuses_bad_input(self):
        (self.out / "plots" / "waf.png").unlink()
        r = plot_only(self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assert_valid_png(self.out / "plots" / "waf.png")
        empty = self.dir / "empty"
        empty.mkdir()
        r = plot_only(empty)
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
        self.assertIn(str(empty / "results.parquet"), r.stderr)
        self.assertFalse((empty / "plots").exists())
        r = subprocess.run([sys.executable, str(ROOT / "scripts" / "sweep.py"), "--plot-only", "--out", str(self.out),
                            "--grid", "ftl.op=0.2,0.4"], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("--grid", r.stderr)

    def test_one_point_has_nothing_to_draw(self):
        out = self.dir / "one-point"
        r = sweep("--workers", 2, "--grid", "ftl.op=0.2", "--repeats", 2, *SMALL,
                  "--workload", "fio:rw=randwrite,bs=4k,iodepth=32,io=5000", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("nothing to draw", r.stdout)
        self.assertEqual(list(out.glob("plots/*.png")), [])


if __name__ == "__main__":
    unittest.main()
