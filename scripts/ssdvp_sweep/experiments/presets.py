"""Real drives as presets (issue 18): each preset of platforms/ runs its datasheet's workloads as
the datasheet states them, and the simulated figure stands beside the datasheet's with the error.

Presets (parts; tags PRESET/FIGURE):
  samsung-960pro-1tb      MLC, no SLC cache, PCIe 3.0 (client: fresh-out-of-box figures);
  samsung-970evoplus-1tb  TLC with an SLC cache (6 GB static + 36 GB dynamic), PCIe 3.0;
  samsung-980pro-1tb      TLC with an SLC cache (6 GB static + 107 GB dynamic), PCIe 4.0;
  intel-p4500-1tb         data-centre TLC, no cache (steady-state figures).
Figures: seqread / seqwrite (128 KiB, QD32, MB/s), randread / randwrite (4 KiB, QD32 x the
datasheet's threads, IOPS), qd1read / qd1write (4 KiB, QD1: IOPS, or mean latency in us where
the datasheet gives latency), and for a drive with a cache `sustained`: a long sequential write
on an empty drive with its throughput series (the curve reviews plot): MB/s in the cache, GB
written when it falls off, MB/s after it.
Drive states: fob (empty: precondition.fill = 0, no overwrites), filled (written once
sequentially) and steady (filled, then the logical space overwritten once at random 4 KiB;
a steady-state random write then runs 8 GB and counts the second half of its series, as SNIA's
PTS measures after the drive has settled).
Every preset's filled and steady drives are preconditioned once and shared through the sweep
engine's state cache.

Scales: full is the presets as shipped (1 TB class). scaled shrinks nand.blocks_per_plane (and
the cache's nand.pslc.blocks_per_plane and ftl.slc_cache.dynamic_blocks_per_plane) only: the dies, channels, pages, timings and link stay,
so every figure but GC's steady state and the cache's size keeps its value.

The suite's checks (claims) hold the platform to its own physics, capacity-independent: sequential
reads at 80 ... 101 % of the narrowest of link, channels and array; random reads at depth per die
at 55 ... 100 % of 1/tR (with independent plane reads: above 1/tR, at most planes/tR); sequential writes at 85 ... 101 % of the narrowest of link and program
bandwidth (the cache's when there is one); a cache's knee at 0.8 ... 1.25 of its size, and its
after-cache speed within 15 % of the native program bandwidth; QD1 reads no faster than tR.
The datasheet comparisons are findings (pass within 10 %), not checks: where they differ,
docs/results/presets.md gives the reason with figures.
Leaves out the report (presets_report.py).
"""
import csv
import re
from pathlib import Path

from ..runspec import RunSpec
from . import Experiment, Finding, claim, finding, integrity_problem, num, register, run_errors

PRESETS = ["samsung-960pro-1tb", "samsung-970evoplus-1tb", "samsung-980pro-1tb", "intel-p4500-1tb"]
CACHE = {"samsung-970evoplus-1tb", "samsung-980pro-1tb"}
# The datasheet: figure -> (value, unit, drive state, threads); unit "us" compares mean latency.
DATASHEET = {
    "samsung-960pro-1tb": {
        "seqread": (3500, "MB/s", "filled", 1), "seqwrite": (2100, "MB/s", "fob", 1),
        "randread": (440000, "IOPS", "filled", 4), "randwrite": (360000, "IOPS", "fob", 4),
        "qd1read": (12000, "IOPS", "filled", 1), "qd1write": (43000, "IOPS", "fob", 1)},
    "samsung-970evoplus-1tb": {
        "seqread": (3500, "MB/s", "filled", 1), "seqwrite": (3300, "MB/s", "fob", 1),
        "randread": (600000, "IOPS", "filled", 4), "randwrite": (550000, "IOPS", "fob", 4),
        "qd1read": (19000, "IOPS", "filled", 1), "qd1write": (60000, "IOPS", "fob", 1)},
    "samsung-980pro-1tb": {
        "seqread": (7000, "MB/s", "filled", 1), "seqwrite": (5000, "MB/s", "fob", 1),
        "randread": (1000000, "IOPS", "filled", 16), "randwrite": (1000000, "IOPS", "fob", 16),
        "qd1read": (22000, "IOPS", "filled", 1), "qd1write": (60000, "IOPS", "fob", 1)},
    "intel-p4500-1tb": {
        "seqread": (3200, "MB/s", "filled", 1), "seqwrite": (600, "MB/s", "filled", 1),
        "randread": (279500, "IOPS", "steady", 4), "randwrite": (30500, "IOPS", "steady", 4),
        "qd1read": (85, "us", "steady", 1), "qd1write": (20, "us", "steady", 1)},
}
# What the preset's comment says was fitted to a figure (so that figure is not a check).
FITTED = {("samsung-960pro-1tb", "seqwrite"), ("intel-p4500-1tb", "seqwrite")}
# The cache as reviews measure it: (GB written at cache speed, MB/s after it, source).
REVIEWED_CACHE = {
    "samsung-970evoplus-1tb": (42, 1700, "datasheet 6 + 36 GB; ~40 GB then 1,500-1,580 MB/s in "
                               "the 2021 long-write comparisons (presets-sources.md section 1)"),
    "samsung-980pro-1tb": (113, 2000, "TechPowerUp: ~113 GB at 4 GB/s (the preset's dynamic part is fitted to it), then ~1.5 GB/s; datasheet "
                           "2,000 MB/s after the buffer (presets-sources.md section 2)"),
}
FIGURES = ["seqread", "seqwrite", "randread", "randwrite", "qd1read", "qd1write"]
SCHEMES = FIGURES + ["sustained", "iss"]
STATES = {"fob": (0.0, 0.0), "filled": (1.0, 0.0), "steady": (1.0, 1.0)}
# nand.blocks_per_plane, pSLC blocks and the dynamic cache's blocks at the scaled size (the
# dynamic part the same share of the native blocks as at full size: 268 and 797 of 2,686).
SCALED_BLOCKS = {"samsung-960pro-1tb": (128, None, None), "samsung-970evoplus-1tb": (128, 16, 11),
                 "samsung-980pro-1tb": (128, 16, 33), "intel-p4500-1tb": (64, None, None)}
# rand_steady: a steady-state random-write run (SNIA PTS measures it after the drive has settled):
# 8 GB, well past the free superblocks GC keeps in reserve (gc_high_blocks a die: 2.9 GB on the
# P4500), measured over the second half of its series.  At 200,000 writes (0.8 GB) the run wrote
# into that reserve and GC barely ran (WAF 1.64, +146 % IOPS).
# sustained_gib: about twice the cache (static + dynamic on the empty drive), so that the
# after-cache speed is measured past 1.5 caches.
IO = {"full": {"seq": 40000, "seqwrite_cache": 16000, "rand": 200000, "rand_steady": 2000000, "qd1": 20000,
               "sustained_gib": {"samsung-970evoplus-1tb": 100.0, "samsung-980pro-1tb": 240.0}},
      "scaled": {"seq": 8000, "seqwrite_cache": 6000, "rand": 50000, "rand_steady": 2000000, "qd1": 4000,
                 "sustained_gib": {"samsung-970evoplus-1tb": 9.0, "samsung-980pro-1tb": 14.0}}}
INTERVAL_MS = 50
MB = 1e6


def workload(preset, figure, scale):
    n = IO[scale]
    if figure == "sustained":
        return f"fio:rw=write,bs=128k,iodepth=32,io={int(n['sustained_gib'][preset] * 2**30 // 131072)}"
    if figure == "iss":
        return "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=32,io=3000"
    threads = DATASHEET[preset][figure][3]
    jobs = f",numjobs={threads}" if threads > 1 else ""
    if figure in ("seqread", "seqwrite"):
        io = n["seqwrite_cache"] if figure == "seqwrite" and preset in CACHE else n["seq"]
        return f"fio:rw={figure[3:]},bs=128k,iodepth=32,io={io}"
    if figure in ("randread", "randwrite"):
        io = n["rand_steady"] if steady_write(preset, figure) else n["rand"]
        return f"fio:rw={figure},bs=4k,iodepth=32{jobs},io={io}"
    return f"fio:rw=rand{figure[3:]},bs=4k,iodepth=1,io={n['qd1']}"


def steady_write(preset, figure):
    """A steady-state write figure: measured over the second half of a long run."""
    return figure == "randwrite" and DATASHEET[preset][figure][2] == "steady"


def state_of(preset, figure):
    if figure == "sustained":
        return "fob"
    if figure == "iss":
        return "filled"
    return DATASHEET[preset][figure][2]


def run_spec(scale, preset, figure):
    fill, over = STATES[state_of(preset, figure)]
    settings = [("precondition.fill", fill), ("precondition.overwrite", over)]
    if scale == "scaled" or figure == "iss":
        blocks, pslc, dynamic = SCALED_BLOCKS[preset]
        settings.append(("nand.blocks_per_plane", blocks))
        if pslc is not None:
            settings.append(("nand.pslc.blocks_per_plane", pslc))
        if dynamic is not None:
            settings.append(("ftl.slc_cache.dynamic_blocks_per_plane", dynamic))
    if figure == "sustained" or steady_write(preset, figure):
        settings.append(("sim.series_interval_ms", float(INTERVAL_MS)))
    if figure == "iss":
        settings.append(("firmware.mode", "iss"))
    return RunSpec(preset, workload(preset, figure, scale), [(k, v, f"presets {figure}") for k, v in settings],
                   (), 0, f"{preset}/{figure}")


def figures_of(preset):
    return FIGURES + (["sustained"] if preset in CACHE else []) + ["iss"]


def expected_tags(parts):
    return [f"{p}/{f}" for p in parts for f in figures_of(p)]


# ---- figures from the runs ----------------------------------------------------------------------

def simulated(preset, figure, row):
    value, unit, _, _ = DATASHEET[preset][figure]
    op = "read" if "read" in figure else "write"
    if steady_write(preset, figure):
        return steady_iops(row)
    if unit == "MB/s":
        return num(row, f"ops.{op}.mbps")
    if unit == "us":
        return num(row, f"ops.{op}.latency_us.mean")
    return num(row, f"ops.{op}.iops")


def series(row):
    """[(GB written by the end of the interval, MB/s in it)] from throughput.csv, without the
    last interval (partial)."""
    out, written = [], 0.0
    with (Path(row["run_dir"]) / "throughput.csv").open() as f:
        for rec in csv.DictReader(f):
            mb_s = float(rec["write_mib_s"]) * 2**20 / MB
            written += mb_s * INTERVAL_MS / 1000 / 1000
            out.append((written, mb_s))
    return out[:-1]


def steady_half(row):
    """Write IOPS per interval over the second half of the run (its series, without the last,
    partial, interval): the drive's steady state once GC has used up the free reserve."""
    with (Path(row["run_dir"]) / "throughput.csv").open() as f:
        iops = [float(rec["write_iops"]) for rec in csv.DictReader(f)][:-1]
    return iops[len(iops) // 2:]


def steady_iops(row):
    half = steady_half(row)
    return sum(half) / len(half) if half else float("nan")


def steady_spread(row):
    """How steady the steady state is: the second half's intervals, the least, median and most
    write IOPS in one, and how many had no write at all (GC stalled every write)."""
    half = sorted(steady_half(row))
    n = len(half)
    return {"intervals": n, "min": half[0], "median": half[n // 2], "max": half[-1],
            "stopped": sum(1 for x in half if x == 0)} if n else None


def first(row, key):
    """A config value's first number (lists like "[50]" included)."""
    m = re.search(r"[-+0-9.eE]+", str(row.get(f"config.{key}", "")))
    return float(m.group(0)) if m else float("nan")


def geometry(row):
    g = {k: first(row, k) for k in ("nand.channels", "nand.ways", "nand.planes", "nand.page_bytes",
                                    "channel.bus_mbps", "host.link_mbps", "host.max_payload_bytes",
                                    "host.tlp_overhead_bytes", "nand.pslc.blocks_per_plane",
                                    "ftl.slc_cache.dynamic_blocks_per_plane")}
    cell = str(row.get("config.nand.cell", "mlc")).strip('"')
    g["t_read_us"] = first(row, f"nand.{cell}.t_read_us")
    g["t_prog_us"] = first(row, f"nand.{cell}.t_prog_us")
    g["pslc_t_read_us"] = first(row, "nand.pslc.t_read_us")
    g["pslc_t_prog_us"] = first(row, "nand.pslc.t_prog_us")
    g["pages_per_block"] = first(row, f"nand.{cell}.pages_per_block")
    g["bits"] = {"slc": 1, "mlc": 2, "tlc": 3}.get(cell, 2)
    g["dies"] = g["nand.channels"] * g["nand.ways"]
    # reads a die serves at once: its planes with independent plane reads (the channel keeps at
    # most 4 operations of a die in flight), else one
    indep = str(row.get("config.nand.independent_plane_reads", "false")).strip('"').lower() == "true"
    g["reads_per_die"] = min(g["nand.planes"], 4) if indep else 1
    mps = g["host.max_payload_bytes"]
    g["link"] = g["host.link_mbps"] * mps / (mps + g["host.tlp_overhead_bytes"])   # payload MB/s
    g["channels_mbps"] = g["nand.channels"] * g["channel.bus_mbps"]
    superpage = g["nand.planes"] * g["nand.page_bytes"]
    g["array_read"] = g["dies"] * superpage / g["t_read_us"]      # MB/s (bytes per us)
    g["native_prog"] = g["dies"] * superpage / g["t_prog_us"]
    g["cache_prog"] = g["dies"] * superpage / g["pslc_t_prog_us"] if g["nand.pslc.blocks_per_plane"] > 0 else 0.0
    dynamic = g["ftl.slc_cache.dynamic_blocks_per_plane"]
    dynamic = 0.0 if dynamic != dynamic else dynamic   # nan: the key is not in the run's config
    # the cache on an empty drive: its static blocks and every block it may borrow
    g["cache_gb"] = ((g["nand.pslc.blocks_per_plane"] + dynamic) * g["nand.planes"] * g["dies"] *
                     g["pages_per_block"] / g["bits"] * g["nand.page_bytes"] / 1e9)
    return g


def sustained_figures(row):
    g = geometry(row)
    pts = series(row)
    cache = g["cache_gb"]
    burst = [r for w, r in pts if w <= cache / 2]
    burst = sum(burst) / len(burst) if burst else float("nan")
    knee = next((w for w, r in pts if w > 0.05 and r < burst * 0.75), None)
    total = pts[-1][0] if pts else 0.0
    after = [r for w, r in pts if w > max(total / 2, cache * 1.5)]
    return {"burst": burst, "knee": knee, "after": sum(after) / len(after) if after else float("nan"),
            "cache_gb": cache, "native_prog": g["native_prog"], "points": pts}


def claims_of(preset, results):
    """The suite's checks for one preset as (claim, holds, figures); a run without a figure a
    check compares fails that check, naming the key."""
    out = []
    r = results[f"{preset}/seqread"]
    g = geometry(r)
    bound = min(g["link"], g["channels_mbps"], g["array_read"])

    def seqread():
        v = num(results[f"{preset}/seqread"], "ops.read.mbps")
        return 0.80 * bound <= v <= 1.01 * bound, f"{v:,.0f} MB/s of {bound:,.0f}"
    out.append(claim(f"{preset}: sequential reads at 80 ... 101 % of the narrowest of link, channels and array "
                     "(QD32 x 128 KiB may not fill the widest)", seqread))
    t_read = min(g["t_read_us"], g["pslc_t_read_us"]) if g["cache_prog"] else g["t_read_us"]
    k = g["reads_per_die"]

    def randread():
        per_die = num(results[f"{preset}/randread"], "ops.read.iops") / g["dies"]
        if k == 1:
            holds = 0.55 * 1e6 / g["t_read_us"] <= per_die <= 1e6 / t_read
        else:
            holds = 1e6 / g["t_read_us"] < per_die <= k * 1e6 / t_read
        return holds, f"{per_die:,.0f} IOPS a die, 1/tR = {1e6 / g['t_read_us']:,.0f}"
    if k == 1:
        out.append(claim(f"{preset}: 4 KiB random reads at depth per die at 55 ... 100 % of 1/tR", randread))
    else:
        out.append(claim(f"{preset}: 4 KiB random reads at depth per die above 1/tR (planes read independently) "
                         f"and at most {k}/tR", randread))
    prog = g["cache_prog"] or g["native_prog"]
    wbound = min(g["link"], prog)

    def seqwrite():
        v = num(results[f"{preset}/seqwrite"], "ops.write.mbps")
        return 0.85 * wbound <= v <= 1.01 * wbound, f"{v:,.0f} MB/s of {wbound:,.0f}"
    out.append(claim(f"{preset}: sequential writes at 85 ... 101 % of the narrowest of link and program bandwidth",
                     seqwrite))
    r = results[f"{preset}/randwrite"]
    if steady_write(preset, "randwrite") and str(r.get("config.ftl.gc_pacing")).lower() == "true":
        s = steady_spread(r)
        out.append((f"{preset}: steady-state random writes with GC paced: no {INTERVAL_MS} ms interval of the "
                    "second half without a write",
                    s is not None and s["stopped"] == 0,
                    f"{s['stopped']:,} of {s['intervals']:,} stopped, least {s['min']:,.0f} IOPS" if s else "no series"))

    def qd1read():
        lat = num(results[f"{preset}/qd1read"], "ops.read.latency_us.mean")
        return lat >= t_read, f"{lat:.1f} us, tR {t_read:.0f} us"
    out.append(claim(f"{preset}: QD1 4 KiB reads take tR or longer", qd1read))
    if preset in CACHE:
        s = sustained_figures(results[f"{preset}/sustained"])
        knee = s["knee"]
        out.append((f"{preset}: the cache falls off after 0.8 ... 1.25 of its size",
                    knee is not None and 0.8 * s["cache_gb"] <= knee <= 1.25 * s["cache_gb"],
                    (f"at {knee:.2f} GB" if knee is not None else "never") + f", cache {s['cache_gb']:.2f} GB"))
        out.append((f"{preset}: after the cache, writes within 15 % of the native program bandwidth",
                    abs(s["after"] / s["native_prog"] - 1) <= 0.15,
                    f"{s['after']:,.0f} MB/s against {s['native_prog']:,.0f}"))
        out.append((f"{preset}: the cache writes at least 1.3x faster than after it",
                    s["burst"] >= 1.3 * s["after"], f"{s['burst']:,.0f} against {s['after']:,.0f} MB/s"))
    return out


def unusable(results, parts):
    def more(tag, r):
        problem = integrity_problem(tag, r)
        if problem:
            return problem
        preset, _, figure = tag.partition("/")
        if (tag.endswith("/sustained") or steady_write(preset, figure)) and \
                not (Path(r["run_dir"]) / "throughput.csv").exists():
            return f"{tag}: no throughput.csv in {r['run_dir']}"
        if tag.endswith("/iss") and str(r.get("firmware.mode")) != "iss":
            return f"{tag}: ran with firmware.mode {r.get('firmware.mode')}"
        if ("read" in tag or tag.endswith("/iss")) and not num(r, "integrity.reads_checked"):
            return f"{tag}: no read was checked"
        return None
    return run_errors(results, expected_tags(parts), more)


def error_pct(sim, sheet):
    return (sim / sheet - 1) * 100


def datasheet_rows(preset, results):
    """[(figure, datasheet value, unit, state, simulated, error %, fitted)]"""
    out = []
    for fig in FIGURES:
        value, unit, state, _ = DATASHEET[preset][fig]
        sim = simulated(preset, fig, results[f"{preset}/{fig}"])
        out.append((fig, value, unit, state, sim, error_pct(sim, value), (preset, fig) in FITTED))
    return out


@register
class Presets(Experiment):
    name = "presets"
    title = "Real drives as presets: datasheet against simulation"
    parts = PRESETS
    checked = PRESETS
    schemes = SCHEMES
    run_timeout_s = 7200

    def runs(self, scale, parts=None):
        return [run_spec(scale, p, f) for p in (parts or PRESETS) for f in figures_of(p)]

    def expected_tags(self, parts):
        return expected_tags(parts)

    def unusable(self, results, parts):
        return unusable(results, parts)

    def checks(self, results, parts=None):
        parts = parts or self.checked
        errors = unusable(results, parts)
        if errors:
            return errors
        return [f"{c}: {fig}" for p in parts for c, holds, fig in claims_of(p, results) if not holds]

    def claims(self, results):
        return [c for p in PRESETS for c in claims_of(p, results)]

    def findings(self, results):
        out = []
        for p in PRESETS:
            if unusable(results, [p]):
                continue
            for fig in FIGURES:
                value, unit, state, _ = DATASHEET[p][fig]
                note = " (fitted to it)" if (p, fig) in FITTED else ""

                def against_sheet(fig=fig, value=value, unit=unit):
                    sim = simulated(p, fig, results[f"{p}/{fig}"])
                    err = error_pct(sim, value)
                    return f"{sim:,.1f} {unit}, {err:+.1f} %", abs(err) <= 10
                out.append(finding(f"{p} {fig} ({state}): {value:,} {unit}{note}", against_sheet))
            if p in CACHE:
                s = sustained_figures(results[f"{p}/sustained"])
                gb, after, _ = REVIEWED_CACHE[p]
                out.append(Finding(f"{p} cache: {gb} GB, then {after:,} MB/s",
                                   f"{s['knee'] or 0:.1f} GB, then {s['after']:,.0f} MB/s",
                                   s["knee"] is not None and abs(s["knee"] / gb - 1) <= 0.1 and
                                   abs(s["after"] / after - 1) <= 0.1))
        return out

    def report(self, results, scale, report_dir, findings):
        from .presets_report import write_report
        return write_report(results, scale, report_dir, findings)
