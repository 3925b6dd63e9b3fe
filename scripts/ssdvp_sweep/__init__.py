"""ssdvp's sweep engine: many ssdvp runs as tasks on Dask distributed (a LocalCluster, an
existing scheduler, or Slurm through dask-jobqueue), one results store (Parquet and CSV) keyed by
a content hash of each run's resolved configuration, workload and build.

Modules, one idea each: interpreter (the venv), errors, schema (config keys from
`ssdvp config-doc`), runspec (one run: resolve, hash), sweepfile (grid/zip/repeats/workloads
from the command line or TOML), identity (build id), task (what a worker runs), flatten
(run.json to one row), store, clusters, progress, engine, varied (which keys a sweep varied),
plots (each swept key against each figure, OUT/plots/), cli, experiments/ (reproduce.py's
registry). docs/sweeps.md is the user's guide.
"""
