"""run.json as one flat row of the results store: every number, flag and string of the results
under its dotted path (total.iops, ops.read.latency_us.p99.9, waf, ftl.gc_runs,
mapping.cmt_hits, utilisation.dram, run_wall_time_s, ...); lists of numbers (per-die and
per-channel utilisation, erases per die) as their .mean and .max; lists of objects (firmware
cores) by index; lists of strings (errors) as their count and their first lines joined.

Leaves out the configuration echo (the store has the swept keys and the hash of the whole
configuration) and the latency histograms (latency_<op>.csv in the run's folder).
"""
import statistics

SKIP = {"config"}
TEXT_LINES = 3


def flatten_run(run):
    row = {}
    _walk(run, "", row)
    return row


def _walk(node, prefix, row):
    for key, value in node.items():
        if not prefix and key in SKIP:
            continue
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            _walk(value, name + ".", row)
        elif isinstance(value, list):
            _list(value, name, row)
        elif value is None:
            continue
        else:
            row[name] = value


def _list(values, name, row):
    if not values:
        row[f"{name}.count"] = 0
    elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        row[f"{name}.mean"] = statistics.fmean(values)
        row[f"{name}.max"] = max(values)
    elif all(isinstance(v, dict) for v in values):
        for i, v in enumerate(values):
            _walk(v, f"{name}.{i}.", row)
    else:
        row[f"{name}.count"] = len(values)
        row[name] = "\n".join(str(v) for v in values[:TEXT_LINES])
