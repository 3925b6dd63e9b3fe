"""Predictive read-ahead (the dtree-readahead paper, issue 12): hit ratio and flash reads of an
LRU read cache, the decision-tree read-ahead (dTree), both (dTree+LRU) and the plain
sequential read-ahead drives do (seq, next-N), against no read cache, on the paper's
ratio-of-random workload, then on the shipped sample traces and on fio sequential, strided,
skewed-random and mixed streams at queue depth 1 and 32 (what the paper leaves as future work).

Device: platforms/default.toml, filled once (precondition.overwrite = 0: reads need mapped
data, not an aged drive). Policies: ftl.readahead = none | lru | dtree | dtree-lru | seq with
the paper's sizes (2 MiB cache, m = n = 4096, 200 sequential requests; the keys' defaults).
Parts (tags PART/.../POLICY):
  rr      the paper's setup: `rr:ratio=RR,bs=4k` (one read stream; RR % of the requests jump to
          a random block of a pool sized so that the 2 MiB cache hits 45.55 % under uniform
          draws, docs/traces.md), RR = 0, 10, ..., 100, REQUESTS[scale] requests at QD 1.
          The paper's items are 512 B; a sector, the smallest read here, is 4 KiB, so an item is
          one 4 KiB request and the cache holds 512 of them (the paper: 4,096).
  mixes   traces/samples/* (every shipped trace, replayed at their own times) and the fio
          streams of FIO at QD 1 and 32.
Checks (the rr part): LRU 0 % at RR 0 and 40 ... 50 % at RR 100 (the paper: 45.55 %); dTree at
least 1 - 250 / requests at RR 0 (the paper: 99.8 % of 100,000: 200 misses before its
sequential rule holds) and under 1 % at RR 100; dTree+LRU within 0.5 point of the better of
the two at every RR (the paper: best at every RR).
Leaves out the report (readahead_report.py).
"""
from ..runspec import ROOT, RunSpec
from . import Experiment, Finding, register, run_errors

PLATFORM = "default"
POLICIES = ["none", "lru", "dtree", "dtree-lru", "seq"]
RRS = {"full": list(range(0, 101, 10)), "scaled": [0, 50, 100]}
REQUESTS = {"full": 100000, "scaled": 20000}
MIX_REQUESTS = {"full": 50000, "scaled": 10000}
TRACES = {"tpcc": "traces/samples/tpcc-small.trace", "wsrch": "traces/samples/wsrch-small.trace",
          "sqlitewal": "traces/samples/sqlitewal_update_blkparse.txt"}
FIO = {  # name: spec without iodepth and io
    "sequential": "fio:rw=read,bs=4k",
    "strided": "fio:rw=read:12k,bs=4k",
    "zipf": "fio:rw=randread,bs=4k,size=1g,random_distribution=zipf:1.2",
    "mixed": "rr:ratio=30,bs=4k",
}
QDS = [1, 32]
PARTS = ["rr", "mixes"]
CHECKED = ["rr"]


def rr_workload(scale, rr):
    return f"rr:ratio={rr},bs=4k,requests={REQUESTS[scale]},seed=1"


def mix_workloads(scale):
    """{name: workload} of the mixes part."""
    out = {f"trace-{name}": f"trace:{ROOT / path}" for name, path in TRACES.items()}
    n = MIX_REQUESTS[scale]
    for name, spec in FIO.items():
        for qd in QDS:
            count = f"requests={n}" if spec.startswith("rr:") else f"io={n}"
            out[f"{name}-qd{qd}"] = f"{spec},iodepth={qd},{count}"
    return out


def spec(workload, policy, tag):
    settings = [("ftl.readahead", policy), ("precondition.overwrite", 0.0)]
    return RunSpec(PLATFORM, workload, [(k, v, "readahead experiment") for k, v in settings], ("ftl.readahead",), 0, tag)


def runs(scale, parts):
    out = []
    if "rr" in parts:
        out += [spec(rr_workload(scale, rr), p, f"rr/{rr}/{p}") for rr in RRS[scale] for p in POLICIES]
    if "mixes" in parts:
        out += [spec(w, p, f"mixes/{name}/{p}") for name, w in mix_workloads(scale).items() for p in POLICIES]
    return out


def expected_tags(parts, scale=None):
    tags = []
    scales = [scale] if scale else ["full", "scaled"]
    for s in scales:
        tags += [r.tag for r in runs(s, parts)]
    return sorted(set(tags))


def num(row, key):
    v = row.get(key) if row else None
    return 0.0 if v is None or v != v else float(v)


def hit(row):
    return num(row, "readahead.hit_ratio")


def rr_scale(results):
    """The scale whose rr runs are in results (full if RR = 10 is there)."""
    return "full" if any(t.startswith("rr/10/") for t in results) else "scaled"


def unusable(results, parts):
    scale = rr_scale(results)

    def more(tag, r):
        if not num(r, "integrity.reads_checked") > 0 and "sqlitewal" not in tag:
            return f"{tag}: no read was checked"
        if num(r, "integrity.mismatches") or num(r, "integrity.unexplained_errors"):
            return f"{tag}: integrity errors"
        return None
    return run_errors(results, [r.tag for r in runs(scale, parts)], more)


def check_figures(results):
    """The suite's claims on the rr part as (claim, holds, figures)."""
    scale = rr_scale(results)
    n = REQUESTS[scale]
    rrs = RRS[scale]

    def h(rr, p):
        return hit(results[f"rr/{rr}/{p}"])
    best = [(rr, h(rr, "dtree-lru"), max(h(rr, "lru"), h(rr, "dtree"))) for rr in rrs]
    worst = min(best, key=lambda x: x[1] - x[2])
    return [
        ("LRU hits 0 % at RR 0", h(0, "lru") < 0.01, f"{h(0, 'lru'):.2%}"),
        ("LRU hits about 45.55 % at RR 100 (40 ... 50 %)", 0.40 <= h(100, "lru") <= 0.50, f"{h(100, 'lru'):.2%}"),
        (f"dTree hits 99.8 % at RR 0 (here at least 1 - 250 / {n:,})", h(0, "dtree") >= 1 - 250 / n,
         f"{h(0, 'dtree'):.2%}"),
        ("dTree hits 0 % at RR 100 (under 1 %)", h(100, "dtree") < 0.01, f"{h(100, 'dtree'):.2%}"),
        ("dTree+LRU is best or tied (within 0.5 point) at every RR", all(b >= m - 0.005 for _, b, m in best),
         f"closest at RR {worst[0]}: {worst[1]:.2%} against {worst[2]:.2%}"),
    ]


@register
class Readahead(Experiment):
    name = "readahead"
    title = "Predictive read-ahead: LRU, dTree, dTree+LRU and next-N"
    parts = PARTS
    checked = CHECKED
    schemes = POLICIES

    def runs(self, scale, parts=None):
        return runs(scale, parts or PARTS)

    def expected_tags(self, parts):
        return expected_tags(parts)

    def unusable(self, results, parts):
        return unusable(results, parts)

    def checks(self, results, parts=None):
        errors = unusable(results, parts or CHECKED)
        if errors:
            return errors
        return [f"{claim}: {fig}" for claim, holds, fig in check_figures(results) if not holds]

    def findings(self, results):
        if unusable(results, CHECKED):
            return []
        scale = rr_scale(results)

        def h(rr, p):
            return hit(results[f"rr/{rr}/{p}"])
        return [Finding(claim, fig, holds) for claim, holds, fig in check_figures(results)] + [
            Finding("LRU hits about 32 % at RR 50", f"{h(50, 'lru'):.1%} (docs/traces.md: the pool model gives "
                    "about 45 % here)", abs(h(50, "lru") - 0.32) < 0.05),
            Finding("dTree+LRU reads flash for 200 ... 54,449 of 100,000 requests",
                    f"{int(num(results['rr/0/dtree-lru'], 'readahead.miss_sectors')):,} ... "
                    f"{int(num(results['rr/100/dtree-lru'], 'readahead.miss_sectors')):,} of {REQUESTS[scale]:,}",
                    True)]

    def report(self, results, scale, report_dir, findings):
        from .readahead_report import write_report
        return write_report(results, scale, report_dir, findings)
