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


class Experiment:
    name = ""
    title = ""
    parts = []       # the experiment's parts (tags PART/...); checks(results, parts) covers them all

    def runs(self, scale, parts=None):
        """RunSpecs of the experiment (all parts, or those named), each with a unique tag."""
        raise NotImplementedError

    def checks(self, results, parts=None):
        """The test suite's assertions on results ({tag: store row}); a list of errors."""
        raise NotImplementedError

    def findings(self, results):
        """[Finding]: the paper's results next to these."""
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
