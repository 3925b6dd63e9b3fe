"""The research experiments scripts/reproduce.py runs. Each module of this package defines one
Experiment and registers it with @register; load_all() imports every module, so adding an
experiment is adding one module here (see ptsd.py, and docs/sweeps.md "Adding an experiment").

An Experiment gives: its runs at a scale (RunSpecs tagged "part/name"), the suite's checks on
its results (errors that fail the test), its findings (the paper's claim next to this run's
figure, pass or differs) and its report (tables, plots, markdown under docs/results/).
Figures come from the store rows through num(): a figure a run lacks (no column, or NaN) raises
MissingFigure, and claim() / finding() make that a failed check or a differing finding naming
the key, never a 0; count() reads, as 0 where absent, only the counters a run reports when it
has something to count.
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


class MissingFigure(LookupError):
    """A figure a check, finding or page needs is not in a run's store row: no such column, or NaN
    (the store's mark for a figure the run did not report). num() raises it; claim() and
    finding() turn it into a failed check or a differing finding that names the key."""

    def __init__(self, key, tag=None):
        self.key, self.tag = key, tag
        super().__init__(f"{tag}: figure {key} missing" if tag else f"figure {key} missing")


def _value(row, key):
    v = row.get(key) if row is not None else None
    return None if v is None or v != v else v


def num(row, key):
    """A store row's figure as a float. Where the run has none (missing column or NaN) it raises
    MissingFigure naming the key and the run's tag: a check or finding on that figure fails, it
    does not read 0."""
    v = _value(row, key)
    if v is None:
        raise MissingFigure(key, row.get("tag") if row is not None else None)
    return float(v)


def count(row, key):
    """A counter the run reports only when it has something to count, as a float; 0 where absent.
    Only for such keys, where absence means none: ops.<op>.* of an operation the run did not
    issue, ops.read.waited_for.* when no read waited, readahead.* without ftl.readahead,
    placement.* without ftl.placement. A figure a check compares is read with num()."""
    v = _value(row, key)
    return 0.0 if v is None else float(v)


def claim(text, measure):
    """One of the suite's checks as (claim, holds, figures): measure() returns (holds, figures);
    a figure missing from a run fails the check, and its figures name the key."""
    try:
        holds, figures = measure()
    except MissingFigure as e:
        return text, False, str(e)
    return text, bool(holds), figures


def finding(paper, measure):
    """A Finding from measure() -> (here, passed); a figure missing from a run makes it differ,
    and its "here" names the key."""
    try:
        here, passed = measure()
    except MissingFigure as e:
        return Finding(paper, str(e), False)
    return Finding(paper, here, bool(passed))


def integrity_problem(tag, r):
    """Why the run's data does not hold up (integrity mismatches, unexplained errors, or a run
    without those figures: every run that reached the host reports them), or None."""
    try:
        mismatches, unexplained = num(r, "integrity.mismatches"), num(r, "integrity.unexplained_errors")
    except MissingFigure as e:
        return f"{tag}: figure {e.key} missing"
    if mismatches or unexplained:
        return f"{tag}: {int(mismatches)} integrity mismatches, {int(unexplained)} unexplained errors"
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
    others what more(tag, row) finds wrong with them (an error string or None; a figure it
    needs that the run lacks is an error naming the key)."""
    errors = []
    for tag in tags:
        r = results.get(tag)
        problem = run_problem(tag, r)
        if not problem and more:
            try:
                problem = more(tag, r)
            except MissingFigure as e:
                problem = f"{tag}: figure {e.key} missing"
        if problem:
            errors.append(problem)
    return errors


def guarded_claims(claims, results):
    """claims(results), or, where a figure outside any claim() is missing, one failed check
    naming it (the claims that need it cannot be evaluated)."""
    try:
        return claims(results)
    except MissingFigure as e:
        return [("the figures the checks compare are in the runs", False, str(e))]


def guarded_findings(findings, results):
    """findings(results), or, where a figure outside any finding() is missing, one differing
    finding naming it."""
    try:
        return findings(results)
    except MissingFigure as e:
        return [Finding("the figures the findings compare are in the runs", str(e), False)]


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
        return self.unusable(results, parts or self.checked) or failed_claims(guarded_claims(self.claims, results))

    def findings(self, results):
        """[Finding]: the paper's results next to these; none while a checked run is unusable.
        Experiments give paper_findings, or override this when their findings differ by part."""
        if self.unusable(results, self.checked):
            return []
        return guarded_findings(self.paper_findings, results)

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
