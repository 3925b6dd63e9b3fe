"""The Dask cluster a sweep runs on, opened from the command line's choice:

* default: a distributed.LocalCluster of worker processes on this machine, one thread each
  (every run is one single-threaded ssdvp process), as many as --workers (default: the cores);
* --scheduler tcp://HOST:PORT: an existing Dask cluster (its workers need the ssdvp build at the
  same path, see docs/sweeps.md);
* --slurm: dask-jobqueue's SLURMCluster, --slurm-jobs batch jobs of --slurm-cores worker
  processes each, on --slurm-partition, with --slurm-memory and --slurm-walltime.

The task function (task.py) is registered to travel by value, so workers need not import this
package. A worker lost mid-run has its task re-run elsewhere by the scheduler, up to
ALLOWED_FAILURES times. The drive-state cache (--state-cache, engine.py) must be a folder
every worker reaches: OUT on a LocalCluster, a shared file system under Slurm. Leaves out
adaptive scaling and security (TLS) options.
"""
import os
import sys
from contextlib import contextmanager
from pathlib import Path

import cloudpickle
import dask
from distributed import Client, LocalCluster

from . import task
from .errors import SweepInputError

ALLOWED_FAILURES = 3


def add_cluster_options(ap):
    g = ap.add_argument_group("where the runs execute (default: a LocalCluster on this machine)")
    g.add_argument("--workers", type=int, default=None, help="LocalCluster worker processes (default: cores)")
    g.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="an existing Dask cluster's scheduler")
    g.add_argument("--slurm", action="store_true", help="start workers as Slurm jobs (dask-jobqueue)")
    g.add_argument("--slurm-partition", default=None, help="Slurm partition (#SBATCH -p; default: the cluster's)")
    g.add_argument("--slurm-cores", type=int, default=1, help="worker processes (and cores) per job (default 1)")
    g.add_argument("--slurm-memory", default="2GB", help="memory per job (default 2GB)")
    g.add_argument("--slurm-walltime", default="01:00:00", help="wall time per job (default 01:00:00)")
    g.add_argument("--slurm-jobs", type=int, default=1, help="number of jobs (default 1)")
    g.add_argument("--slurm-interface", default=None, help="network interface of scheduler and workers (e.g. ib0, lo)")
    g.add_argument("--slurm-log-dir", default=None, help="where Slurm writes the jobs' output (default: OUT/slurm-logs)")
    g.add_argument("--state-cache", metavar="DIR", default=None,
                   help="drive-state snapshots shared by runs of one preconditioned drive (default: OUT/drive-states "
                        "on a LocalCluster or Slurm; none with --scheduler unless given: the workers must reach it)")
    g.add_argument("--no-state-cache", action="store_true", help="precondition every run itself")


def state_cache_dir(args, out):
    """The folder runs share drive-state snapshots in (engine.py), or None."""
    if getattr(args, "no_state_cache", False):
        if getattr(args, "state_cache", None):
            raise SweepInputError("--state-cache and --no-state-cache exclude each other")
        return None
    if getattr(args, "state_cache", None):
        return Path(args.state_cache).resolve()
    if getattr(args, "scheduler", None):
        return None
    return (Path(out) / "drive-states").resolve()


def describe(args):
    if args.scheduler:
        return f"existing Dask cluster at {args.scheduler}"
    if args.slurm:
        return (f"Slurm: {args.slurm_jobs} job(s) x {args.slurm_cores} worker(s), partition "
                f"{args.slurm_partition or '(default)'}, {args.slurm_memory}, {args.slurm_walltime}")
    return f"LocalCluster of {args.workers or os.cpu_count()} worker process(es)"


@contextmanager
def open_client(args, out):
    """Yields a distributed.Client on the chosen cluster; closes what it opened."""
    if sum(bool(x) for x in (args.scheduler, args.slurm, args.workers)) > 1:
        raise SweepInputError("--workers, --scheduler and --slurm exclude each other")
    if args.workers is not None and args.workers < 1:
        raise SweepInputError(f"--workers {args.workers}: must be at least 1")
    cloudpickle.register_pickle_by_value(task)
    with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                          "distributed.worker.daemon": False}):
        if args.scheduler:
            with Client(args.scheduler, timeout="30s") as client:
                yield client
        elif args.slurm:
            from dask_jobqueue import SLURMCluster
            log_dir = Path(args.slurm_log_dir or Path(out) / "slurm-logs").resolve()
            log_dir.mkdir(parents=True, exist_ok=True)
            cluster = SLURMCluster(queue=args.slurm_partition, cores=args.slurm_cores, processes=args.slurm_cores,
                                   memory=args.slurm_memory, walltime=args.slurm_walltime, python=sys.executable,
                                   log_directory=str(log_dir), local_directory="/tmp", interface=args.slurm_interface,
                                   scheduler_options={"dashboard_address": ":0"}, job_name="ssdvp-sweep")
            try:
                cluster.scale(jobs=args.slurm_jobs)
                with Client(cluster) as client:
                    yield client
            finally:
                cluster.close()
        else:
            with LocalCluster(n_workers=args.workers or os.cpu_count(), threads_per_worker=1, processes=True,
                              memory_limit=0, dashboard_address=":0") as cluster:
                with Client(cluster) as client:
                    yield client
