"""The LAPT paper's synthetic trace profiles (scripts/lapt_profiles.py), checked on the trace
FILES it writes: each written file is read back here by this test's own parser and its figures
computed here, independently of the generator's records, reader and summary. For every profile
at scale 1 and 0.1 the file has the paper's request count (Table 2, copied below, round(count x
scale)), its write fraction within 1 point and its mean write size within 3%, every line five
integers with device 0, every request 4 KiB aligned and inside [0, span), times strictly
increasing, and a first comment line naming the arguments; it is byte-identical to the file
written by another process (this one, through the Python interface) with the same seed and
differs with another seed; --stats prints the figures this test computes from the file. Small
spans, down to the largest request, keep every written request inside. Bad arguments exit with
status 2 and a message naming the option, and write nothing."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from sweep_test_support import ROOT

import lapt_profiles as lp

SCRIPT = ROOT / "scripts" / "lapt_profiles.py"
SCALES = (1.0, 0.1)
# The paper's Table 2 (docs/references.md#lapt): requests, write fraction, mean write size in
# 512-byte sectors. Kept here, not read from lapt_profiles.PROFILES, so that the file is held
# to the paper and not to the generator's own copy of it.
TABLE2 = {"exchange": (204_571, 0.79, 24.83), "photoshop": (23_498, 0.29, 414.21),
          "random": (33_740, 0.99, 8.28), "general": (300_000, 0.23, 27.67)}
SECTORS_PER_PAGE = 8      # 4 KiB pages of 512-byte trace sectors


def cli(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def printed_stats(text):
    """{label: value} of --stats output."""
    return dict(line.rsplit(None, 1) for line in text.splitlines())


def read_written(path):
    """(comment lines, [(time, device, lba, size, type)]) of a trace file, parsed here: every
    line that is not a comment must be five integers."""
    comments, rows = [], []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if line.startswith("#"):
            comments.append(line)
            continue
        fields = line.split()
        assert len(fields) == 5, f"{path}:{number}: {len(fields)} fields, not 5: {line!r}"
        rows.append(tuple(int(f) for f in fields))
    return comments, rows


def file_figures(rows):
    """The figures of parsed trace lines: requests, write fraction, mean write and read size
    (sectors), distinct 4 KiB pages touched."""
    writes = [r[3] for r in rows if r[4] == 0]
    reads = [r[3] for r in rows if r[4] == 1]
    pages = set()
    for _, _, lba, size, _ in rows:
        pages.update(range(lba // SECTORS_PER_PAGE, -(-(lba + size) // SECTORS_PER_PAGE)))
    return {"requests": len(rows), "write_fraction": len(writes) / len(rows),
            "mean_write_sectors": sum(writes) / len(writes) if writes else float("nan"),
            "mean_read_sectors": sum(reads) / len(reads) if reads else float("nan"), "distinct_pages": len(pages)}


class LaptProfiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def assert_well_formed(self, rows, span, what):
        """Every parsed line: device 0, type 0 or 1, 4 KiB aligned, inside [0, span); times
        strictly increasing."""
        bad = [r for r in rows if r[1] != 0 or r[4] not in (0, 1)]
        self.assertEqual(bad[:3], [], f"{what}: a line with a device other than 0 or a type other than 0/1")
        bad = [r for r in rows if r[2] % SECTORS_PER_PAGE or r[3] % SECTORS_PER_PAGE or r[3] <= 0]
        self.assertEqual(bad[:3], [], f"{what}: a request is not 4 KiB aligned")
        bad = [r for r in rows if r[2] < 0 or r[2] + r[3] > span]
        self.assertEqual(bad[:3], [], f"{what}: a request leaves [0, {span})")
        self.assertTrue(all(b[0] > a[0] for a, b in zip(rows, rows[1:])), f"{what}: times do not increase")

    def test_every_profile_has_the_papers_figures_here(self):
        self.assertEqual(sorted(lp.PROFILES), sorted(TABLE2), "a profile without the paper's Table 2 figures here")

    def test_written_files_match_the_paper_and_are_reproducible(self):
        for name, (requests, write_fraction, mean_write) in TABLE2.items():
            for scale in SCALES:
                with self.subTest(profile=name, scale=scale):
                    out = self.dir / f"{name}-{scale}.trace"
                    r = cli(name, "--out", out, "--scale", scale)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    comments, rows = read_written(out)
                    self.assertEqual(comments[:1], [f"# lapt_profiles.py {name} span_sectors="
                                                    f"{lp.DEFAULT_SPAN_SECTORS} scale={scale:g} seed={lp.DEFAULT_SEED}: "
                                                    "time_ns device lba_sector size_sectors type(0=write,1=read)"])
                    f = file_figures(rows)
                    self.assertEqual(f["requests"], round(requests * scale))
                    self.assertLessEqual(abs(f["write_fraction"] - write_fraction), 0.01, f)
                    self.assertLessEqual(abs(f["mean_write_sectors"] / mean_write - 1), 0.03, f)
                    self.assert_well_formed(rows, lp.DEFAULT_SPAN_SECTORS, f"{name} x {scale}")

                    again = self.dir / "again.trace"
                    lp.write_profile(again, name, scale=scale)
                    self.assertEqual(out.read_bytes(), again.read_bytes(), "same seed, another process")
                    other = self.dir / "other.trace"
                    lp.write_profile(other, name, scale=scale, seed=lp.DEFAULT_SEED + 1)
                    self.assertNotEqual([r[2] for r in read_written(other)[1]], [r[2] for r in rows],
                                        "another seed, same addresses")

                    r = cli("--stats", out)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    printed = printed_stats(r.stdout)
                    self.assertEqual(int(printed["requests"]), f["requests"])
                    self.assertEqual(printed["write fraction"], f"{f['write_fraction']:.4f}")
                    self.assertEqual(printed["mean write sectors"], f"{f['mean_write_sectors']:.2f}")
                    self.assertEqual(printed["mean read sectors"], f"{f['mean_read_sectors']:.2f}")
                    self.assertEqual(int(printed["distinct 4 KiB pages"]), f["distinct_pages"])

    def test_small_spans_hold_every_request(self):
        for name in lp.PROFILES:
            largest = lp.largest_request_sectors(lp.PROFILES[name])
            for span in (32768, largest):
                with self.subTest(profile=name, span=span):
                    out = self.dir / f"{name}-{span}.trace"
                    lp.write_profile(out, name, span_sectors=span, scale=0.1)
                    rows = read_written(out)[1]
                    self.assertEqual(len(rows), round(TABLE2[name][0] * 0.1))
                    self.assert_well_formed(rows, span, f"{name} in {span} sectors")

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
