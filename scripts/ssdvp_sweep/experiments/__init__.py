"""The research experiments scripts/reproduce.py runs. Each module of this package defines one
Experiment and registers it with @register; load_all() imports every module, so adding an
experiment is adding one module here (see ptsd.py, and docs/sweeps.md "Adding an experiment").

An Experiment gives: its runs at a scale (RunSpecs tagged "part/name"), the suite's checks on
its results (errors that fail the test), its findings (the paper's claim next to this run's
figure, pass or differs) and its report (tables, plots, markdown under docs/results/).
Leaves out running (engine.py) and the cluster (clusters.py).
"""
import importlib
import pkgutil
from dataclasses import dataclass

SCALES = ("scaled", "full")
REGISTRY = {}


@dataclass
class Finding:
    paper: str       # the paper's claim
    here: str        # this run's figure(s)
    passed: bool     # same direction (and size, where the claim gives one)

    @property
    def verdict(self):
        return "pass" if self.passed else "differs"


def findings_rows(findings):
    """The findings as a markdown table: the paper's claim, this run's figure, the verdict."""
    return ["| the paper | here | verdict |", "|---|---|---|"] + \
        [f"| {f.paper} | {f.here} | **{f.verdict}** |" for f in findings]


def checks_rows(checks):
    """The suite's checks (claim, holds, figures) as a markdown table."""
    return ["| claim | figures | holds |", "|---|---|---|"] + [
        f"| {claim} | {fig} | {'yes' if holds else '**no**'} |" for claim, holds, fig in checks]


def failed_claims(checks):
    """The errors of the suite's checks (claim, holds, figures) that do not hold."""
    return [f"{claim}: {fig}" for claim, holds, fig in checks if not holds]


def checks_verdict(errors):
    """The line a page ends its checks with: the same checks on the page's own runs."""
    return "The same checks on the runs of this page: " + (
        "**passed**." if not errors else "**failed**: " + "; ".join(errors) + ".")


def num(row, key):
    """A store row's figure as a float; 0 where the run has none (missing column or NaN)."""
    v = row.get(key) if row else None
    return 0.0 if v is None or v != v else float(v)


def integrity_problem(tag, r):
    """Why the run's data does not hold up (integrity mismatches, unexplained errors), or None."""
    if num(r, "integrity.mismatches") or num(r, "integrity.unexplained_errors"):
        return (f"{tag}: {int(num(r, 'integrity.mismatches'))} integrity mismatches, "
                f"{int(num(r, 'integrity.unexplained_errors'))} unexplained errors")
    return None


def run_problem(tag, r):
    """Why the run of tag is not a measurement (missing, failed, did not complete), or None."""
    if r is None:
        return f"{tag}: run missing"
    if r.get("status") != "ok":
        tail = (r.get("error") or "").splitlines()[-1:]
        return f"{tag}: run failed ({r.get('status')}{': ' + tail[0] if tail else ''})"
    if not bool(r.get("completed", False)):
        return f"{tag}: run did not complete"
    return None


def run_errors(results, tags, more=None):
    """Errors for every tag whose run is missing or not a measurement (run_problem), and for the
    others what more(tag, row) finds wrong with them (an error string or None)."""
    errors = []
    for tag in tags:
        r = results.get(tag)
        problem = run_problem(tag, r) or (more(tag, r) if more else None)
        if problem:
            errors.append(problem)
    return errors


class Experiment:
    name = ""
    title = ""
    parts = []       # the experiment's parts (tags PART/...); checks(results, parts) covers them all
    checked = []     # the parts the test suite checks
    schemes = []     # the names --only may pick (experiment_cli.py)
    workdir = None   # a folder for files the runs read (reproduce.py, experiment_cli.py set it)
    run_timeout_s = None   # seconds after which one of its runs is killed (status timeout) unless
                           # --timeout says otherwise

    def scheme_of(self, tag):
        """The scheme a tag PART/.../SCHEME runs."""
        return tag.rsplit("/", 1)[1]

    def expected_tags(self, parts):
        """Every tag the runs of these parts should leave in the store (by default: the tags of
        their runs at every scale)."""
        return sorted({r.tag for s in SCALES for r in self.runs(s, parts)})

    def unusable(self, results, parts):
        """Errors for every run of these parts that is missing or not a clean measurement."""
        raise NotImplementedError

    def report_parts(self, parts):
        """The parts whose runs a report of `parts` needs."""
        return parts

    def run_notes(self, wanted, failed):
        """Lines to print after the runs of tags `wanted`, given the errors `failed`."""
        return []

    def runs(self, scale, parts=None):
        """RunSpecs of the experiment (all parts, or those named), each with a unique tag."""
        raise NotImplementedError

    def claims(self, results):
        """The suite's checks as (claim, holds, figures), on results whose runs are usable."""
        raise NotImplementedError

    def checks(self, results, parts=None):
        """The test suite's assertions on results ({tag: store row}); a list of errors: the
        runs of `parts` (default: the checked ones) that are not usable, else the claims that
        do not hold.  Experiments whose checks differ by part override it."""
        return self.unusable(results, parts or self.checked) or failed_claims(self.claims(results))

    def findings(self, results):
        """[Finding]: the paper's results next to these; none while a checked run is unusable.
        Experiments give paper_findings, or override this when their findings differ by part."""
        if self.unusable(results, self.checked):
            return []
        return self.paper_findings(results)

    def paper_findings(self, results):
        """The findings of results whose checked runs are usable."""
        raise NotImplementedError

    def report(self, results, scale, report_dir, findings):
        """Writes tables, plots and markdown into report_dir; returns the files written."""
        raise NotImplementedError


def register(cls):
    REGISTRY[cls.name] = cls()
    return cls


def load_all():
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return REGISTRY
