"""The LAPT experiment's enforced orderings (scripts/ssdvp_sweep/experiments/lapt_checks.py), on
store rows made here: every ordering names runs the experiment makes; times that satisfy every
ordering pass the checks and one reversed ordering fails naming its claim; an ordering is chosen
only when it holds by 5% at both sizes. Rows only, about 1 s.
"""
import unittest

from sweep_test_support import ROOT  # noqa: F401  (puts scripts/ on sys.path, runs under the venv)

from ssdvp_sweep.experiments import lapt, lapt_checks


def consistent_times():
    """{tag: time} over every run named by an ordering, each run slower than all the runs an
    ordering says finish before it (a longest-path depth, 10% a step)."""
    faster = {}
    for g, fast, slow in lapt_checks.ORDERINGS:
        faster.setdefault(f"{g}/{slow}", set()).add(f"{g}/{fast}")
        faster.setdefault(f"{g}/{fast}", set())
    depth = {}

    def d(tag, seen=()):
        if tag not in depth:
            if tag in seen:
                raise AssertionError(f"orderings form a cycle through {tag}")
            depth[tag] = 1 + max((d(f, seen + (tag,)) for f in faster[tag]), default=0)
        return depth[tag]
    return {tag: 1.1 ** d(tag) for tag in faster}


def rows(times):
    return {tag: {"sim_time_s": t, "status": "ok"} for tag, t in times.items()}


class Orderings(unittest.TestCase):
    def test_every_ordering_names_runs_of_a_checked_part(self):
        expected = set(lapt.expected_tags(lapt.CHECKED))
        self.assertGreater(len(lapt_checks.ORDERINGS), 50)
        for g, fast, slow in lapt_checks.ORDERINGS:
            self.assertIn(g.split("/")[0], lapt.CHECKED)
            self.assertIn(f"{g}/{fast}", expected)
            self.assertIn(f"{g}/{slow}", expected)

    def test_consistent_times_pass_and_a_reversed_ordering_fails(self):
        times = consistent_times()
        checks = lapt_checks.check_figures(rows(times))
        self.assertEqual(len(checks), len(lapt_checks.ORDERINGS))
        self.assertTrue(all(fast < slow for _, fast, slow in checks))
        g, fast, slow = lapt_checks.ORDERINGS[len(lapt_checks.ORDERINGS) // 2]
        times[f"{g}/{fast}"] = times[f"{g}/{slow}"] * 1.01
        failed = [claim for claim, f, s in lapt_checks.check_figures(rows(times)) if not f < s]
        self.assertIn(f"{g}: {fast} shorter than {slow}", failed)

    def test_a_pair_is_chosen_only_when_it_holds_by_5_percent_at_both_sizes(self):
        full = rows({"total/random/lapt": 0.90, "total/random/combo": 1.00, "total/random/mlc-homo": 1.00,
                     "total/random/slc-only": 0.50})
        scaled = rows({"total/random/lapt": 0.97, "total/random/combo": 1.00, "total/random/mlc-homo": 1.20,
                       "total/random/slc-only": 0.60})
        both = lapt_checks.held_at_both(full, scaled)
        self.assertIn(("total/random", "slc-only", "lapt"), both)       # 44% and 38%
        self.assertIn(("total/random", "lapt", "mlc-homo"), both)       # 10% and 19%
        self.assertNotIn(("total/random", "lapt", "combo"), both)       # 10%, but 3% scaled
        self.assertNotIn(("total/random", "combo", "mlc-homo"), both)   # a tie at full size


if __name__ == "__main__":
    unittest.main()
