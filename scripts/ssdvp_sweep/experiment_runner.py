"""Runs one registered experiment (experiments/) through the sweep engine: plans its runs,
records them in the store's manifest under the experiment's name (so its checks and report
read exactly these runs), runs what the store lacks on the chosen cluster, and returns
{tag: store row}. Also prints findings as the paper's claim, this run's figure and a verdict.

Leaves out the experiments' content (experiments/*.py) and the command lines (reproduce.py,
ptsd_experiment.py).
"""
import copy
import shutil
import sys
from pathlib import Path

from .cli import execute, plan_all
from .store import ResultsStore


def run_experiment(experiment, specs, out, args, binary, fresh=False):
    schema, planned = plan_all(specs, binary)
    if fresh and Path(out).exists():
        shutil.rmtree(out)
    ResultsStore(out).write_manifest(experiment.name, planned)
    if getattr(args, "timeout", None) is None and experiment.run_timeout_s:
        args = copy.copy(args)    # the experiment's own limit: a run that hangs fails, named
        args.timeout = experiment.run_timeout_s
    execute(planned, out, args, schema, binary)
    return ResultsStore(out).tagged_rows(experiment.name)


def print_findings(experiment, scale, findings, stream=sys.stdout):
    stream.write(f"\n== {experiment.name} ({scale}): {experiment.title}\n")
    if not findings:
        stream.write("  (no findings: runs missing)\n")
    width = max((len(f.paper) for f in findings), default=0)
    for f in findings:
        stream.write(f"  {f.paper:<{width}}  | here: {f.here}  | {f.verdict}\n")
