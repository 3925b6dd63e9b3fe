"""Runs planned runs on a Dask client and records them in the store: runs whose hash the store
already holds with status ok are not submitted (a killed sweep, restarted, runs only what is
missing); every other run is one task; each finished task becomes a store row (figures when it
succeeded, status and stderr tail when not) and its files go to runs/<hash>/. A failed run
never stops the sweep. A task whose worker died ALLOWED_FAILURES times is recorded as
worker-lost. Each successful run's configuration echo (run.json "config") is compared with the
resolved configuration the hash was made from: a difference is recorded as config-mismatch,
naming the keys, so the store never files a run under a configuration it did not run.

Drive-state cache (state_cache, a folder every worker can reach): runs that differ only in
their workload (workload.*, sim.seed and the reporting keys) start from the same preconditioned
drive; the first of such a group runs alone with `ssdvp run --state-cache DIR` and saves the
drive, the others are submitted when it is done and load it (platforms/drive_snapshot.h). A
run gives the same figures with or without the cache, so its hash does not change. Runs with
power cuts, the RTL channel or no preconditioning do not use it, nor runs alone in their group.

Leaves out choosing the cluster (clusters.py) and reading the sweep's definition (sweepfile.py).
"""
import time
import uuid
from datetime import datetime, timezone

from distributed import as_completed
from distributed.scheduler import KilledWorker

from .errors import SweepInputError
from .flatten import flatten_run
from .identity import PRESENTATION_KEYS
from .progress import Progress
from .task import run_one

FLUSH_EVERY_S = 1.0


def unique_runs(planned):
    seen, out = set(), []
    for p in planned:
        if p.hash not in seen:
            seen.add(p.hash)
            out.append(p)
    return out


# Keys that do not shape the drive before the workload starts (ssdvp's own list:
# shapes_the_drive in platforms/drive_snapshot.cpp; a difference only costs a shared snapshot).
NOT_DRIVE_KEYS = ("sim.seed", "sim.output_dir", "sim.progress", "sim.series_interval_ms", "sim.max_sim_ms")
NO_SNAPSHOT_ARGS = ("--power-cut", "--power-on", "--after-recovery", "--no-precondition",
                    "--save-state", "--load-state", "--state-cache")


def drive_key(planned):
    """What the drive state before the workload depends on, or None: the run cannot use a snapshot."""
    c = planned.config
    if c.get("channel.model") == "rtl" or any(a in NO_SNAPSHOT_ARGS for a in planned.spec.args):
        return None
    if c.get("device.interface", "conventional") != "conventional":   # an Open-Channel device has no snapshots
        return None
    if not (c.get("precondition.fill", 0) > 0 or c.get("precondition.overwrite", 0) > 0):
        return None
    shaping = sorted((k, repr(v)) for k, v in c.items() if not k.startswith("workload.") and k not in NOT_DRIVE_KEYS)
    return (planned.build, planned.platform_path, tuple(shaping), tuple(planned.spec.args))


def drive_groups(runs):
    """[[leader, follower, ...]] of the runs that share a drive state, two or more each."""
    groups = {}
    for p in runs:
        k = drive_key(p)
        if k is not None:
            groups.setdefault(k, []).append(p)
    return [g for g in groups.values() if len(g) > 1]


def config_differences(schema, planned, run):
    echo = run.get("config")
    if not isinstance(echo, dict):
        return ["run.json has no configuration echo"]
    diffs = []
    for key, want in planned.config.items():
        if key in PRESENTATION_KEYS:
            continue
        if key not in echo:
            diffs.append(f"{key} missing from run.json")
            continue
        try:
            got = schema.parse(key, echo[key], "run.json")
        except SweepInputError as e:
            diffs.append(str(e))
            continue
        if got != want and not (isinstance(want, float) and abs(got - want) <= 1e-9 * max(1.0, abs(want))):
            diffs.append(f"{key}: ran {echo[key]}, planned {want}")
    return diffs


def make_row(planned, result, schema, store):
    spec = planned.spec
    row = {"hash": planned.hash, "label": planned.label(), "status": result["status"],
           "exit_code": result.get("exit_code"), "error": result.get("stderr") or "",
           "platform": planned.platform_path or "(built-in default)",
           "workload": planned.workload or planned.config["workload.spec"], "repeat": spec.repeat,
           "build": planned.build, "worker": result.get("worker", ""), "wall_s": result.get("wall_s", 0.0),
           "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "run_dir": ""}
    row["tag"], row["swept"] = spec.tag, ",".join(spec.swept)
    for key, value in planned.config.items():      # the whole resolved configuration
        if key not in PRESENTATION_KEYS:
            row[f"config.{key}"] = value
    run = result.get("run")
    if run is not None:
        if row["status"] == "ok":
            diffs = config_differences(schema, planned, run)
            if diffs:
                row["status"] = "config-mismatch"
                row["error"] = "; ".join(diffs[:5])
        for key, value in flatten_run(run).items():   # run.json's platform and workload: run.platform, ...
            row[f"run.{key}" if key in row else key] = value
    folder = store.save_files(planned.hash, result.get("files"))   # also drops an earlier run's files
    row["run_dir"] = str(folder) if folder else ""
    return row


def run_sweep(planned, store, client, schema, binary, *, timeout_s=None, progress=None, state_cache=None):
    """Submits the runs the store lacks; returns the store rows of every planned run.
    state_cache: a folder for drive-state snapshots shared by runs of one drive (or None)."""
    runs = unique_runs(planned)
    done = store.ok_hashes()
    todo = [p for p in runs if p.hash not in done]
    progress = progress or Progress(len(todo), skipped=len(runs) - len(todo))
    token = uuid.uuid4().hex[:8]
    cached, waiting = {}, {}          # hash -> cache folder; leader's hash -> its followers
    if state_cache:
        for group in drive_groups(todo):
            for p in group:
                cached[p.hash] = str(state_cache)
            waiting[group[0].hash] = group[1:]
    held = {p.hash for followers in waiting.values() for p in followers}
    futures = {}

    def submit(p):
        task = p.task(binary, timeout_s)
        if p.hash in cached:
            task["command"] += ["--state-cache", cached[p.hash]]
        fut = client.submit(run_one, task, key=f"ssdvp-run-{p.hash}-{token}", pure=False, retries=1)
        futures[fut] = p
        return fut

    for p in todo:
        if p.hash not in held:
            submit(p)
    last_flush = time.time()
    pending = as_completed(list(futures))
    try:
        for fut in pending:
            p = futures.pop(fut)
            for follower in waiting.pop(p.hash, []):   # the drive is saved (or the leader failed: one saves)
                pending.add(submit(follower))
            try:
                result = fut.result()
            except KilledWorker as e:
                result = {"status": "worker-lost", "stderr": f"the worker running it died {e}"}
            except Exception as e:  # a task that raised twice (retries=1): recorded, the sweep goes on
                result = {"status": "error", "stderr": f"{type(e).__name__}: {e}"}
            row = make_row(p, result, schema, store)
            store.put(row)
            progress.update(row)
            if time.time() - last_flush >= FLUSH_EVERY_S:
                store.flush()
                last_flush = time.time()
    finally:
        for fut in futures:
            fut.cancel()
        store.flush()
        progress.close()
    return store.frame({p.hash for p in runs})
