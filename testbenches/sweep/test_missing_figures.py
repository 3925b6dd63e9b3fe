"""A figure missing from a run fails the experiments' checks and findings, naming the key: it is
never read as 0 (scripts/ssdvp_sweep/experiments: num() raises MissingFigure, claim() and
finding() turn that into a failed check or a differing finding).

The checks are fed store rows made here, complete (the checks pass: the control) and then
without a figure, absent or NaN (as the store holds a run that did not report it):
  mtftl      "the CPU work done stays within 5 %" without host_cpu.cpu_work_s (both runs, one
             run, NaN), and its finding "CPU work about -1 %"; the paper's setting's checks without
             the rings' insertions; a run without integrity figures;
  power-cut  "every power-on read the whole namespace back" without recovery.check.sectors_checked
             and ftl.logical_sectors, and "no durable sector lost" without recovery.check.lost;
  readahead  "LRU hits 0 % at RR 0" and "dTree hits 0 % at RR 100" without readahead.hit_ratio;
  write-buffer "buffer read hits grow with the buffer" without the small buffer's
             write_buffer.read_hit_ratio, and the host's "its lock costs a written sector more
             CPU" without host_ftl.lock.spin_s;
  lapt       the finding "LAPT's table about 3 % of the page-level map" without placement.lapt_bytes
             and placement.map_bytes.
Each expects a failure whose text names the missing key. No ssdvp run: rows only (about 1 s).
"""
import copy
import math
import unittest

from sweep_test_support import ROOT  # noqa: F401  (puts scripts/ on sys.path, runs under the venv)

from ssdvp_sweep.experiments import load_all

EXPERIMENTS = load_all()


def ok_row(tag, **figures):
    """A store row of a clean, completed run with these figures (dots in keys as `__`)."""
    row = {"tag": tag, "status": "ok", "completed": True, "integrity.mismatches": 0,
           "integrity.unexplained_errors": 0, "integrity.reads_checked": 1000}
    row.update({k.replace("__", "."): v for k, v in figures.items()})
    return row


def without(results, key, tags=None, nan=False):
    """A copy of results with key removed from the rows of tags (default: every row), or NaN."""
    out = copy.deepcopy(results)
    for tag, row in out.items():
        if tags is None or tag in tags:
            if nan:
                row[key] = math.nan
            else:
                row.pop(key, None)
    return out


class MissingFigureTest(unittest.TestCase):
    def assert_fails_naming(self, errors, key, claim=None):
        """errors (check errors, or findings not passed as 'paper: here') hold one naming key
        (and starting with claim, if given)."""
        named = [e for e in errors if key in e and (claim is None or e.startswith(claim))]
        self.assertTrue(named, f"no failure names {key}" + (f" in '{claim}'" if claim else "") +
                        ": " + repr(errors))

    @staticmethod
    def differing(findings):
        return [f"{f.paper}: {f.here}" for f in findings if not f.passed]


class Mtftl(MissingFigureTest):
    def setUp(self):
        self.exp = EXPERIMENTS["mtftl"]
        core = "firmware__cores__{}__buffer_inserted_sectors"
        none = {core.format(k): v for k, v in enumerate([4000, 1000, 1000, 1000])}
        greedy = {core.format(k): v for k, v in enumerate([1800, 1700, 1750, 1750])}
        common = {"host_cpu__cpu_work_s": 10.0, "utilisation__dies__mean": 0.5}
        ring = "host_ftl__ring__{}__inserted_sectors"
        hnone = {ring.format(k): v for k, v in enumerate([4000, 1000, 1000, 1000])}
        hgreedy = {ring.format(k): v for k, v in enumerate([1800, 1700, 1750, 1750])}
        self.results = {
            "host/none": ok_row("host/none", ops__write__mbps=100.0, **hnone, **common),
            "host/greedy": ok_row("host/greedy", ops__write__mbps=130.0, **hgreedy, **common),
            "migration/mlc/none": ok_row("migration/mlc/none", ops__write__mbps=100.0, **none, **common),
            "migration/mlc/greedy": ok_row("migration/mlc/greedy", ops__write__mbps=130.0, **greedy, **common)}

    def test_complete_rows_pass(self):
        self.assertEqual(self.exp.checks(self.results), [])
        self.assertEqual(self.differing(self.exp.findings(self.results)), [])

    def test_cpu_work_missing_from_both_runs_fails_the_cpu_work_check(self):
        errors = self.exp.checks(without(self.results, "host_cpu.cpu_work_s"))
        self.assert_fails_naming(errors, "host_cpu.cpu_work_s", "the CPU work done stays within 5 %")

    def test_cpu_work_nan_fails_the_cpu_work_check(self):
        errors = self.exp.checks(without(self.results, "host_cpu.cpu_work_s", nan=True))
        self.assert_fails_naming(errors, "host_cpu.cpu_work_s", "the CPU work done stays within 5 %")

    def test_cpu_work_missing_from_one_run_names_it(self):
        errors = self.exp.checks(without(self.results, "host_cpu.cpu_work_s", ["migration/mlc/greedy"]))
        self.assert_fails_naming(errors, "host_cpu.cpu_work_s", "the CPU work done stays within 5 %")

    def test_cpu_work_missing_makes_the_finding_differ(self):
        found = self.differing(self.exp.findings(without(self.results, "host_cpu.cpu_work_s")))
        self.assert_fails_naming(found, "host_cpu.cpu_work_s", "CPU work about -1 %")

    def test_ring_insertions_missing_fail_the_host_checks_naming_them(self):
        rows = self.results
        for k in range(4):
            rows = without(rows, f"host_ftl.ring.{k}.inserted_sectors", ["host/none"])
        errors = self.exp.checks(rows)
        self.assert_fails_naming(errors, "host_ftl.ring.0.inserted_sectors", "the paper's setting: without migration")

    def test_a_run_without_integrity_figures_is_not_usable(self):
        errors = self.exp.checks(without(self.results, "integrity.mismatches", ["migration/mlc/none"]))
        self.assert_fails_naming(errors, "integrity.mismatches", "migration/mlc/none")


class PowerCut(MissingFigureTest):
    def setUp(self):
        self.exp = EXPERIMENTS["power-cut"]
        self.results = {s.tag: ok_row(s.tag, recovery__check__lost=0, recovery__check__sectors_checked=57344,
                                      ftl__logical_sectors=57344, power_cut__interrupted__count=1,
                                      recovery__boot_to_ready_s=0.01, recovery__plane_reads=100,
                                      recovery__trim_records_found=2, ops__write__requests=100,
                                      placement__slc_gc_runs=3)
                        for s in self.exp.runs("scaled")}

    def test_complete_rows_pass(self):
        self.assertEqual(self.exp.checks(self.results), [])

    def test_no_read_back_figures_fail_the_whole_namespace_check(self):
        results = without(without(self.results, "recovery.check.sectors_checked"), "ftl.logical_sectors")
        errors = self.exp.checks(results)
        for part in self.exp.checked:
            self.assert_fails_naming(errors, "recovery.check.sectors_checked",
                                     f"{part}: every power-on read the whole namespace back")

    def test_read_back_figure_missing_from_one_cut_names_it(self):
        tag = next(t for t in self.results if t.startswith("trim/"))
        errors = self.exp.checks(without(self.results, "recovery.check.sectors_checked", [tag]))
        self.assert_fails_naming(errors, "recovery.check.sectors_checked",
                                 "trim: every power-on read the whole namespace back")

    def test_no_lost_count_fails_the_no_loss_check(self):
        errors = self.exp.checks(without(self.results, "recovery.check.lost", nan=True))
        self.assert_fails_naming(errors, "recovery.check.lost", "mix: no durable sector lost in any cut")


class Readahead(MissingFigureTest):
    def setUp(self):
        self.exp = EXPERIMENTS["readahead"]
        hits = {"lru": {0: 0.0, 50: 0.45, 100: 0.455}, "dtree": {0: 0.999, 50: 0.5, 100: 0.0},
                "dtree-lru": {0: 0.999, 50: 0.7, 100: 0.455}, "seq": {0: 0.99, 50: 0.3, 100: 0.0}}
        self.results = {}
        for s in self.exp.runs("scaled", ["rr"]):
            _, rr, policy = s.tag.split("/")
            figures = {} if policy == "none" else {"readahead__hit_ratio": hits[policy][int(rr)]}
            self.results[s.tag] = ok_row(s.tag, **figures)

    def test_complete_rows_pass(self):
        self.assertEqual(self.exp.checks(self.results), [])

    def test_hit_ratio_missing_fails_the_zero_hit_checks(self):
        errors = self.exp.checks(without(self.results, "readahead.hit_ratio", ["rr/0/lru", "rr/100/dtree"]))
        self.assert_fails_naming(errors, "readahead.hit_ratio", "LRU hits 0 % at RR 0")
        self.assert_fails_naming(errors, "readahead.hit_ratio", "dTree hits 0 % at RR 100")


class WriteBuffer(MissingFigureTest):
    def setUp(self):
        self.exp = EXPERIMENTS["write-buffer"]
        read = {2: 20.0, 18: 150.0, 54: 400.0, 72: 420.0}
        hit = {32: 0.01, 256: 0.08}
        self.results = {}
        spin = {18: 1.0, 36: 3.0}   # host random write: seconds spun on the FTL's lock
        blocked = {18: 100.0, 36: 20_000.0}   # and submissions that waited for room in the ring
        for s in self.exp.runs("scaled", self.exp.checked):
            part, threads, mib = s.tag.split("/")[-3:]
            figures = {"ops__read__mbps": read.get(int(threads), 100.0), "ops__write__mbps": 50.0,
                       "write_buffer__read_hit_ratio": hit.get(int(mib), 0.0) if part == "mixed" else 0.0}
            if s.tag.startswith("host/randwrite/"):
                figures.update({"host_ftl__blocked_submissions": blocked[int(threads)],
                                "host_ftl__lock__spin_s": spin[int(threads)], "ops__write__requests": 262_144.0,
                                "host_ftl__ring__0__inserted_sectors": 262_144.0})
            self.results[s.tag] = ok_row(s.tag, **figures)
        self.small = next(t for t in self.results if t.startswith("mixed/") and t.endswith("/32"))
        self.host_write = next(t for t in self.results if t.startswith("host/randwrite/36/"))

    def test_complete_rows_pass(self):
        self.assertEqual(self.exp.checks(self.results), [])

    def test_small_buffer_hits_missing_fail_the_hits_check(self):
        errors = self.exp.checks(without(self.results, "write_buffer.read_hit_ratio", [self.small]))
        self.assert_fails_naming(errors, "write_buffer.read_hit_ratio", "device FTL: buffer read hits grow with the buffer")

    def test_host_lock_spin_missing_fails_the_lock_check(self):
        errors = self.exp.checks(without(self.results, "host_ftl.lock.spin_s", [self.host_write]))
        self.assert_fails_naming(errors, "host_ftl.lock.spin_s", "pblk on the host: its lock costs a written sector more CPU")


class Lapt(MissingFigureTest):
    def test_table_size_finding_differs_without_its_figures(self):
        exp = EXPERIMENTS["lapt"]
        complete = {"total/general/lapt": ok_row("total/general/lapt", placement__lapt_bytes=16_000,
                                                 ftl__logical_sectors=98_304, sim_time_s=10.0)}
        self.assertEqual(self.differing(exp.findings(complete)), [])
        results = without(without(complete, "placement.lapt_bytes"), "ftl.logical_sectors")
        self.assert_fails_naming(self.differing(exp.findings(results)), "placement.lapt_bytes",
                                 "LAPT's table about 3% of the page-level map")


if __name__ == "__main__":
    unittest.main()
