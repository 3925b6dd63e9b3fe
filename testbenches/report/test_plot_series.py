#!/usr/bin/python3
"""scripts/plot_series.py on bad input and on a real run: a missing folder, a folder without
run.json, a run.json without "series" (a real run without sim.series_interval_ms; with
--run-dir and no binary, that run less its series) and one whose series lacks a key each exit 2
with a message naming the file and what is missing; a run with the series on (a fresh ssdvp run
on the small platform, or --run-dir) gets a PNG, and an SVG with -o.

  testbenches/report/test_plot_series.py [SSDVP_BINARY] [--run-dir RUN_WITH_SERIES] [--work DIR]
"""
import json
import subprocess
import sys
import unittest

from report_test_support import SCRIPTS, arguments, series_run, ssdvp_run

PLOT = SCRIPTS / "plot_series.py"
ARGS = None


def plot(*args):
    return subprocess.run([sys.executable, str(PLOT), *map(str, args)], capture_output=True, text=True, timeout=120)


class PlotSeries(unittest.TestCase):
    def assert_refused(self, proc, *fragments):
        self.assertEqual(proc.returncode, 2, proc.stderr)
        for fragment in fragments:
            self.assertIn(fragment, proc.stderr)

    def test_missing_folder(self):
        missing = ARGS.work / "no-such-run"
        self.assert_refused(plot(missing), str(missing), "no such folder")

    def test_folder_without_run_json(self):
        empty = ARGS.work / "empty"
        empty.mkdir()
        self.assert_refused(plot(empty), str(empty / "run.json"), "missing")

    def test_run_without_series(self):
        if ARGS.binary:
            run = ssdvp_run(ARGS.binary, ARGS.work / "no-series", series=False)
        else:  # --run-dir alone: that run less its series
            run = series_run(ARGS, "no-series")
            document = json.loads((run / "run.json").read_text())
            del document["series"]
            (run / "run.json").write_text(json.dumps(document))
        self.assert_refused(plot(run), str(run / "run.json"), "no key 'series'", "sim.series_interval_ms")
        self.assertFalse((run / "series.png").exists())

    def test_series_without_a_key(self):
        run = series_run(ARGS, "series-without-wbuf")
        path = run / "run.json"
        document = json.loads(path.read_text())
        self.assertTrue("series" in document, f"{path} has no series: is the binary older than the series?")
        del document["series"]["device"]["wbuf_used"]
        path.write_text(json.dumps(document))
        self.assert_refused(plot(run), str(path), "'series.device.wbuf_used'")

    def test_plots_a_run_with_series(self):
        run = series_run(ARGS, "with-series")
        series = json.loads((run / "run.json").read_text()).get("series")
        self.assertIsNotNone(series, f"{run / 'run.json'} has no series: is the binary older than the series?")
        self.assertIn("write", series["ops"])
        proc = plot(run)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        png = (run / "series.png").read_bytes()
        self.assertTrue(png.startswith(b"\x89PNG\r\n\x1a\n"))
        self.assertGreater(len(png), 20000)
        svg = run / "series.svg"
        proc = plot(run, "-o", svg)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("<svg", svg.read_text())


if __name__ == "__main__":
    ARGS = arguments(__doc__.split("\n\n")[0])
    unittest.main(argv=[sys.argv[0]])
