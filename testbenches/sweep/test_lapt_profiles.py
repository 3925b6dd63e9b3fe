"""The LAPT paper's synthetic trace profiles (scripts/lapt_profiles.py). For every profile at
scale 1 and 0.1, the trace the command writes has the paper's request count (round(count x
scale)), its write fraction within 1 point and its mean write size within 3%, every request
4 KiB aligned and inside [0, span); it is byte-identical to the trace written by another process
(this one, through the Python interface) with the same seed and differs with another seed; and
--stats prints what the generator's own records give. Small spans, down to the largest request,
keep every request inside. Bad arguments exit with status 2 and a message naming the option,
and write nothing."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from sweep_test_support import ROOT

import lapt_profiles as lp

SCRIPT = ROOT / "scripts" / "lapt_profiles.py"
SCALES = (1.0, 0.1)


def cli(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def printed_stats(text):
    """{label: value} of --stats output."""
    return dict(line.rsplit(None, 1) for line in text.splitlines())


class LaptProfiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def assert_inside_and_aligned(self, records, span, what):
        lba, size = records["lba"], records["size"]
        self.assertTrue((lba >= 0).all() and (lba + size <= span).all(), f"{what}: a request leaves [0, {span})")
        self.assertTrue((lba % 8 == 0).all() and (size % 8 == 0).all() and (size > 0).all(),
                        f"{what}: a request is not 4 KiB aligned")

    def test_profiles_match_the_paper_and_are_reproducible(self):
        for name, profile in lp.PROFILES.items():
            for scale in SCALES:
                with self.subTest(profile=name, scale=scale):
                    out = self.dir / f"{name}-{scale}.trace"
                    r = cli(name, "--out", out, "--scale", scale)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    records = lp.read_trace(out)
                    s = lp.summarize(records)
                    self.assertEqual(s["requests"], round(profile.paper_requests * scale))
                    self.assertLessEqual(abs(s["write_fraction"] - profile.paper_write_fraction), 0.01)
                    self.assertLessEqual(abs(s["mean_write_sectors"] / profile.paper_mean_write_sectors - 1), 0.03)
                    self.assert_inside_and_aligned(records, lp.DEFAULT_SPAN_SECTORS, f"{name} x {scale}")
                    self.assertTrue((records["time_ns"][1:] > records["time_ns"][:-1]).all())

                    again = self.dir / "again.trace"
                    generated = lp.write_profile(again, name, scale=scale)
                    self.assertEqual(out.read_bytes(), again.read_bytes(), "same seed, another process")
                    other = lp.generate(name, scale=scale, seed=lp.DEFAULT_SEED + 1)
                    self.assertFalse((other["lba"] == records["lba"]).all(), "another seed, same addresses")

                    r = cli("--stats", out)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertEqual(r.stdout.strip(), lp.format_stats(lp.summarize(generated)))
                    printed = printed_stats(r.stdout)
                    self.assertEqual(int(printed["requests"]), round(profile.paper_requests * scale))
                    self.assertLessEqual(abs(float(printed["write fraction"]) - profile.paper_write_fraction), 0.01)
                    self.assertLessEqual(abs(float(printed["mean write sectors"]) / profile.paper_mean_write_sectors
                                             - 1), 0.03)
                    self.assertEqual(int(printed["distinct 4 KiB pages"]), s["distinct_pages"])

    def test_small_spans_hold_every_request(self):
        for name in lp.PROFILES:
            largest = lp.largest_request_sectors(lp.PROFILES[name])
            for span in (32768, largest):
                with self.subTest(profile=name, span=span):
                    records = lp.generate(name, span_sectors=span, scale=0.1)
                    self.assertEqual(records.size, round(lp.PROFILES[name].paper_requests * 0.1))
                    self.assert_inside_and_aligned(records, span, f"{name} in {span} sectors")

    def test_list_names_every_profile(self):
        r = cli("--list")
        self.assertEqual(r.returncode, 0, r.stderr)
        for name, profile in lp.PROFILES.items():
            self.assertIn(name, r.stdout)
            self.assertIn(f"{profile.paper_mean_write_sectors:.2f}", r.stdout)

    def test_bad_input_names_the_option(self):
        out = self.dir / "bad.trace"
        malformed = self.dir / "malformed.trace"
        malformed.write_text("0 0 0 8 0\n10 0 8 8 2\n")
        cases = [
            (("bogus", "--out", out), ["PROFILE", "bogus"]),
            (("exchange", "--out", out, "--span-sectors", 1001), ["--span-sectors", "1001", "multiple of 8"]),
            (("exchange", "--out", out, "--span-sectors", 0), ["--span-sectors"]),
            (("exchange", "--out", out, "--span-sectors", "1g"), ["--span-sectors", "1g"]),
            (("photoshop", "--out", out, "--span-sectors", 1024), ["--span-sectors", "largest request", "2048"]),
            (("exchange", "--out", out, "--scale", 0), ["--scale"]),
            (("exchange", "--out", out, "--scale", -1), ["--scale"]),
            (("exchange", "--out", out, "--scale", "nan"), ["--scale"]),
            (("exchange", "--out", out, "--scale", 1e-9), ["--scale", "0 requests"]),
            (("exchange", "--out", out, "--seed", -1), ["--seed"]),
            (("exchange", "--out", out, "--seed", "x"), ["--seed"]),
            (("exchange",), ["--out", "required"]),
            (("--out", out), ["PROFILE", "required"]),
            (("exchange", "--out", self.dir / "no" / "such" / "dir"), ["--out", "cannot write"]),
            (("--stats", self.dir / "missing.trace"), ["--stats", "missing.trace"]),
            (("--stats", malformed), ["--stats", f"{malformed}:2", "type"]),
            (("exchange", "--stats", malformed), ["--stats", "PROFILE"]),
        ]
        for args, names in cases:
            with self.subTest(args=args):
                r = cli(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("error: argument", r.stderr)
                for name in names:
                    self.assertIn(str(name), r.stderr)
                self.assertFalse(out.exists(), "a refused command wrote its output")
        with self.assertRaises(lp.BadArgument) as e:
            lp.generate("exchange", span_sectors=1001)
        self.assertEqual(e.exception.name, "span_sectors")


if __name__ == "__main__":
    unittest.main()
