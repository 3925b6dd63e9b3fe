"""A pSLC write cache on a TLC drive (issue 11, beyond the LAPT paper): write throughput over a
long sequential write on a fresh drive, the curve drive reviews plot, for a plain SLC cache,
LAPT and ComboFTL on the cache and the same drive without one.

Device: platforms/pslc-tlc.toml (the default geometry with TLC dies, the first 32 blocks per
plane of every die in SLC mode: a 512 MiB cache). Schemes (tags sustained/SCHEME):
  tlc        no cache (nand.pslc.blocks_per_plane = 0, ftl.placement = none): direct to TLC;
  slc-cache  ftl.placement = slc-only: every write to the cache, FIFO SLC GC folds it to TLC;
  lapt       LAPT on the cache;
  combo      ComboFTL on the cache (its 16 KiB rule: 128 KiB writes go to TLC).
Workload: fio sequential write, 128 KiB at queue depth 32, from LBA 0, on a fresh drive
(precondition.fill = 0, no overwrites): GIB[scale] GiB, several times the cache. Each run writes throughput.csv
(sim.series_interval_ms = INTERVAL_MS); the figures come from it:
  burst      MiB/s over the first half of the cache's size written;
  knee       GiB written when an interval's throughput first falls below half the burst;
  sustained  MiB/s over the second half of the data written.
Checks (every part): a plain cache bursts at 3x or more the drive's direct TLC speed and falls
off within 0.5 ... 1.25 cache sizes; once full it writes slower than the drive without a
cache (each byte is programmed twice); LAPT's sustained speed is above the plain cache's.
Leaves out the report (pslc_report.py); idle recovery of the cache (ftl.idle_migration_us).
"""
import csv
from pathlib import Path

from ..runspec import RunSpec
from . import Experiment, Finding, finding, num, register, run_errors

PLATFORM = "pslc-tlc"
SCHEMES = {  # tag name: (ftl.placement, nand.pslc.blocks_per_plane or None = the platform's)
    "tlc": ("none", 0),
    "slc-cache": ("slc-only", None),
    "lapt": ("lapt", None),
    "combo": ("combo", None),
}
PARTS = ["sustained"]
GIB = {"full": 4.0, "scaled": 1.5}
BS_KIB = 128
IODEPTH = 32
INTERVAL_MS = 50
# The cache of pslc-tlc.toml: 32 dies x 2 planes x 32 blocks x 64 pages x 4 KiB.
CACHE_GIB = 32 * 2 * 32 * 64 * 4096 / 2**30
MIB = 2**20


def workload(scale):
    requests = int(GIB[scale] * 2**30 // (BS_KIB * 1024))
    return f"fio:rw=write,bs={BS_KIB}k,iodepth={IODEPTH},io={requests}"


def run_spec(scale, scheme):
    placement, pslc = SCHEMES[scheme]
    settings = [("ftl.placement", placement), ("precondition.fill", 0.0), ("precondition.overwrite", 0.0),
                ("sim.series_interval_ms", float(INTERVAL_MS))]
    if pslc is not None:
        settings.append(("nand.pslc.blocks_per_plane", pslc))
    return RunSpec(PLATFORM, workload(scale), [(k, v, "pslc sustained") for k, v in settings],
                   ("ftl.placement", "nand.pslc.blocks_per_plane"), 0, f"sustained/{scheme}")


def expected_tags(parts):
    return [f"sustained/{s}" for s in SCHEMES] if "sustained" in parts else []


# ---- figures from a run's throughput series --------------------------------------------------

def series(row):
    """[(GiB written by the end of the interval, write MiB/s in it)] from the run's
    throughput.csv (the store's run_dir), without the last interval (partial: the run ended
    in it)."""
    path = Path(row["run_dir"]) / "throughput.csv"
    out, written = [], 0.0
    with path.open() as f:
        for rec in csv.DictReader(f):
            mib_s = float(rec["write_mib_s"])
            written += mib_s * INTERVAL_MS / 1000 / 1024
            out.append((written, mib_s))
    return out[:-1]


def mean_rate(points, lo_gib, hi_gib):
    """MiB/s over the intervals whose end lies in (lo, hi]: data over time."""
    sel = [r for g, r in points if lo_gib < g <= hi_gib]
    return sum(sel) / len(sel) if sel else float("nan")


def figures(row):
    pts = series(row)
    total = pts[-1][0] if pts else 0.0
    burst = mean_rate(pts, 0.0, CACHE_GIB / 2)
    knee = next((g for g, r in pts if g > 0.05 and r < burst / 2), None)
    return {"burst": burst, "knee": knee, "sustained": mean_rate(pts, total / 2, total)}


def all_figures(results):
    return {s: figures(results[f"sustained/{s}"]) for s in SCHEMES}


def unusable(results, parts):
    def more(tag, r):
        if not (Path(r["run_dir"]) / "throughput.csv").exists():
            return f"{tag}: no throughput.csv in {r['run_dir']}"
        if int(r.get("ops.write.requests", 0) or 0) != workload_requests(r):
            return f"{tag}: {r.get('ops.write.requests')} writes, the workload has {workload_requests(r)}"
        return None
    return run_errors(results, expected_tags(parts), more)


def workload_requests(row):
    return int(str(row["workload"]).rsplit("io=", 1)[1].split(",")[0])


def check_figures(f):
    """The suite's claims as (claim, holds, figures)."""
    tlc, cache, lapt = f["tlc"], f["slc-cache"], f["lapt"]
    knee = cache["knee"]
    return [
        ("a plain SLC cache bursts at 3x the drive's direct TLC speed or more",
         cache["burst"] >= 3 * tlc["sustained"], f"{cache['burst']:.0f} against {tlc['sustained']:.0f} MiB/s"),
        (f"the plain cache falls off after 0.5 ... 1.25 cache sizes ({CACHE_GIB:.2f} GiB)",
         knee is not None and 0.5 * CACHE_GIB <= knee <= 1.25 * CACHE_GIB,
         f"at {knee:.2f} GiB" if knee is not None else "never"),
        ("once full, the plain cache writes slower than the drive without a cache",
         cache["sustained"] < tlc["sustained"], f"{cache['sustained']:.1f} against {tlc['sustained']:.1f} MiB/s"),
        ("LAPT's sustained speed is above the plain cache's",
         lapt["sustained"] > cache["sustained"], f"{lapt['sustained']:.1f} against {cache['sustained']:.1f} MiB/s"),
    ]


@register
class Pslc(Experiment):
    name = "pslc"
    title = "A pSLC write cache on a TLC drive: sustained sequential writes"
    parts = PARTS
    checked = PARTS
    schemes = list(SCHEMES)

    def runs(self, scale, parts=None):
        return [run_spec(scale, s) for s in SCHEMES] if "sustained" in (parts or PARTS) else []

    def expected_tags(self, parts):
        return expected_tags(parts)

    def unusable(self, results, parts):
        return unusable(results, parts)

    def claims(self, results):
        return check_figures(all_figures(results))

    def findings(self, results):
        if unusable(results, PARTS):
            return []
        f = all_figures(results)

        def combo_to_tlc():
            to_slc = num(results["sustained/combo"], "placement.host_slc_sectors")
            return (f"{int(to_slc):,} sectors to the cache; burst {f['combo']['burst']:.0f} MiB/s, "
                    f"TLC {f['tlc']['burst']:.0f} MiB/s", not to_slc and f["combo"]["burst"] < 1.05 * f["tlc"]["burst"])
        return [Finding(claim, fig, holds) for claim, holds, fig in check_figures(f)] + [
            finding("ComboFTL sends 128 KiB writes to TLC: no cache benefit for large sequential writes", combo_to_tlc)]

    def report(self, results, scale, report_dir, findings):
        from .pslc_report import write_report
        return write_report(results, scale, report_dir, findings)
