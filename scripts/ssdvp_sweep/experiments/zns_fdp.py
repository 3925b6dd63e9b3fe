"""The host-managed interfaces' study (issue 48; docs/fdp.md, docs/zns.md): write amplification,
throughput and write tail latency of a mix of data with different lifetimes on the default
geometry as a conventional drive, with Flexible Data Placement (each kind of data to its own
reclaim unit handle), and as ZNS under a log-structured host FTL.

Device: the default platform (8 channels x 4 ways, 2 planes, 512 blocks of 128 pages of 4 KiB,
7% over-provisioning, greedy GC, 16 MiB write buffer); scaled: 2 channels x 2 ways (2 GiB) and a
3 MiB write buffer (the smallest the firmware takes; the default's share of the drive would be 2
MiB). Schemes (tags MIX/.../SCHEME):
  conv            no FDP: every write to the one open superblock of each die;
  fdp             ftl.fdp.handles = 8, one reclaim group, initially isolated (the drive of
                  [fdp-cachelib]: a Samsung PM9D3 with 8 initially isolated handles);
  fdp-persistent  the same, persistently isolated (GC copies stay with their handle).
Mixes:
  cachelib/U  CacheLib's flash cache on U% of the drive (U = 50, 100), from an empty drive (the
              paper trims the whole device first): a small object cache (SOC, BigHash) of random
              4 KiB writes, 16 jobs, over its first 4% and a large object cache (LOC, BlockCache)
              written as a log, 64 KiB sequential writes of one job wrapping over the other 96%,
              queue depth 4 each; SOC to placement index 1, LOC to 2; equal bytes (16 x 4 KiB
              against 1 x 64 KiB outstanding; the paper gives no split: chosen), DRIVE_WRITES
              drive capacities in all (5 at full scale; 3 scaled, so that the suite's ZNS run under
              the host FTL, the slowest, fits the 3 minutes a scaled reproduction may take).
  regions/50  the same at 50% with the large object cache rewriting its 16 MiB regions (CacheLib's
              default region) in no particular order, each sequentially (run_length), instead of
              as a log in write order: what the 50% comparison with the paper turns on.
  hotcold     random 4 KiB writes at queue depth 32, 80% of them to 20% of the LBAs (hotcold:20/80),
              on a preconditioned drive (filled, then half overwritten at random), hot writes to
              index 1, cold to 2; HOTCOLD_WRITES drive capacities (full scale only).
Every value above is the platform's, the paper's or stated as chosen before the runs; none was
tuned to a result.
  conv-ring       the conventional drive with pblk's ring as its write buffer (the host FTL's).
  zns             device.interface = zns under the host FTL (pblk: the same FTL on host CPUs, its
                  map and GC on the host; a zone = one block of one die): the log-structured
                  host FTL over zones, with no placement of its own.
Checks (scaled: cachelib at 100% and 50%, conv and fdp, and fdp-persistent and zns at 100%): at 100% the
conventional drive's write amplification is at least 1.5x FDP's and FDP's at most 1.15 (the
paper: 3.5 against about 1.03), FDP's write p99 below the conventional drive's; at 50% neither
drive's GC copies more than 1% of what the host wrote, and the conventional drive's WAF is lower
than at 100%; persistent isolation no worse than initial (within 5%); in every FDP run the FDP
statistics log's media bytes written and erased equal the NAND's own counts; ZNS under the host
FTL amplifies end to end at least 1.5x FDP (the same mixing log), while the device itself programs
only what it is sent (0.95 ... 1.05).
Leaves out the report (zns_fdp_report.py).
"""
from ..runspec import RunSpec
from . import Experiment, claim, integrity_problem, num, register, run_errors

SCALES_SETTINGS = {   # the geometry and buffer of each scale
    "full": [("nand.channels", 8), ("nand.ways", 4), ("ftl.write_buffer_mib", 16.0)],
    "scaled": [("nand.channels", 2), ("nand.ways", 2), ("ftl.write_buffer_mib", 3.0)],
}
PHYS_BYTES = {"full": 32 * 2 * 512 * 128 * 4096, "scaled": 4 * 2 * 512 * 128 * 4096}
SCHEMES = {   # name: settings
    "conv": [],
    # The conventional drive with the host FTL's write buffer (pblk's ring: whole stripes, its
    # rate limiter): ZNS under pblk against the device FTL with the same buffer.
    "conv-ring": [("ftl.write_buffer", "ring")],
    "fdp": [("ftl.fdp.handles", 8), ("ftl.fdp.isolation", "initial")],
    "fdp-persistent": [("ftl.fdp.handles", 8), ("ftl.fdp.isolation", "persistent")],
    # The same FTL as pblk on the host over zones: a zone is one block of one die; the zones it
    # keeps open, 3 a die, are the device's open and active limits (chosen: the ZN540's 14 is
    # below what a per-die log needs on 32 dies).
    "zns": [("device.interface", "zns"), ("device.zns.dies_per_zone", 1), ("host.ftl", "pblk"),
            ("ftl.write_buffer", "ring"), ("precondition.mode", "timed")],
}
UTILISATIONS = {"full": [50, 100], "scaled": [50, 100]}
# Host bytes of a cachelib run, in drive capacities (chosen: several LOC passes). Scaled: 3, not 5:
# with 5 the scaled sweep took 245 s on 2 cores, 187 s of it the ZNS run (pblk's user threads retry
# a full ring 210 times a write), past the 3 minutes a scaled reproduction in ctest may take.
DRIVE_WRITES = {"full": 5, "scaled": 3}
HOTCOLD_WRITES = 3        # of a hotcold run
SOC_SHARE = 4             # % of the cache (the paper's default)
SOC_JOBS, SOC_BS, LOC_BS, DEPTH = 16, 4096, 65536, 4
INTERVAL_MS = 1000.0      # the series' interval (write p99 over time)
REGION_BYTES = 16 << 20   # CacheLib's BlockCache region (its default: 16 MiB)
PARTS = ["cachelib", "regions", "hotcold"]
CHECKED = ["cachelib"]


def cachelib_spec(scale, u, fdp, regions=False):
    """regions: the large object cache rewrites its regions (REGION_BYTES) in no particular order
    (each region sequentially), instead of as a log in write order."""
    soc, loc = SOC_SHARE * u / 100, (100 - SOC_SHARE) * u / 100
    each = DRIVE_WRITES[scale] * PHYS_BYTES[scale] // 2   # bytes of each cache
    pid = (lambda i: f",fdp=1,fdp_pli={i}") if fdp else (lambda i: "")
    loc_rw = f"randwrite,run_length={REGION_BYTES}" if regions else "write"
    return (f"fio:rw=randwrite,bs=4k,offset=0,size={soc:g}%,numjobs={SOC_JOBS},iodepth={DEPTH},"
            f"io={each // SOC_BS // SOC_JOBS}{pid(1)}&"
            f"fio:rw={loc_rw},bs=64k,offset={soc:g}%,size={loc:g}%,iodepth={DEPTH},io={each // LOC_BS}{pid(2)}")


def hotcold_spec(scale, fdp):
    n = HOTCOLD_WRITES * PHYS_BYTES[scale] // 4096
    tail = ",fdp=1,fdp_pli=1:2,fdp_pli_select=hotcold" if fdp else ""
    return f"fio:rw=randwrite,bs=4k,iodepth=32,io={n},random_distribution=hotcold:20/80{tail}"


def run_spec(scale, mix, scheme, u=None):
    fdp = scheme.startswith("fdp")
    settings = list(SCALES_SETTINGS[scale]) + SCHEMES[scheme] + [("sim.series_interval_ms", INTERVAL_MS)]
    if scheme == "zns":
        dies = dict(SCALES_SETTINGS[scale])["nand.channels"] * dict(SCALES_SETTINGS[scale])["nand.ways"]
        settings += [("device.zns.max_open", 3 * dies), ("device.zns.max_active", 3 * dies)]
    if mix in ("cachelib", "regions"):
        settings += [("precondition.fill", 0.0), ("precondition.overwrite", 0.0)]   # from a trimmed drive
        wl, tag = cachelib_spec(scale, u, fdp, mix == "regions"), f"{mix}/{u}/{scheme}"
    else:
        settings += [("precondition.fill", 1.0), ("precondition.overwrite", 0.5)]
        wl, tag = hotcold_spec(scale, fdp), f"hotcold/{scheme}"
    why = "zns-fdp study"
    return RunSpec("default", wl, [(k, v, why) for k, v in settings],
                   ("ftl.fdp.handles", "ftl.fdp.isolation", "device.interface", "ftl.write_buffer"), 0, tag)


def runs(scale, parts):
    out = []
    if "cachelib" in parts:
        for u in UTILISATIONS[scale]:
            for s in SCHEMES:
                if s in ("fdp-persistent", "zns", "conv-ring") and u != 100:
                    continue
                out.append(run_spec(scale, "cachelib", s, u))
    if "regions" in parts:   # the 50% difference from the paper: LOC regions rewritten out of order
        out += [run_spec(scale, "regions", s, 50) for s in ("conv", "fdp")]
    if "hotcold" in parts and scale == "full":
        out += [run_spec(scale, "hotcold", s) for s in ("conv", "fdp", "zns")]
    return out


def scale_of(results):
    r = next(iter(results.values()))
    return "full" if num(r, "config.nand.channels") == 8 else "scaled"


def is_fdp(tag):
    return "/fdp" in tag


def logs_problem(tag, r):
    """An FDP run whose logs were not read, or differ from the NAND's counts."""
    problem = integrity_problem(tag, r)
    if problem or not is_fdp(tag):
        return problem
    if not num(r, "fdp.logs_read") or num(r, "fdp.log_status"):
        return f"{tag}: the FDP logs were not read (status {r.get('fdp.log_status')})"
    return None


def waf(r):
    """End to end: the sectors programmed for the host's (the device's FTL, or the host FTL and
    its GC) over the host's."""
    return num(r, "waf")


def device_waf(r):
    """The NAND's programmed sectors over the sectors the device was sent (a host FTL's writes,
    its GC's included; without one, the host's)."""
    sent = r.get("host_ftl.device_commands.lbas_written")
    return num(r, "nand.programmed_sectors") / (float(sent) if sent is not None else num(r, "ftl.host_write_sectors"))


def p99(r):
    return num(r, "ops.write.latency_us.p99")


def check_figures(results):
    def row(u, s):
        return results[f"cachelib/{u}/{s}"]

    def logs_equal():
        bad = []
        for tag, r in results.items():
            if not is_fdp(tag):
                continue
            for log, nand in (("media_bytes_written", "programmed_bytes"), ("media_bytes_erased", "erased_bytes")):
                a, b = num(r, f"fdp.statistics.{log}"), num(r, f"fdp.nand_at_log_read.{nand}")
                if a != b:
                    bad.append(f"{tag}: {log} {a:.0f} against the NAND's {b:.0f}")
        n = sum(1 for t in results if is_fdp(t))
        return not bad, "; ".join(bad) or f"equal in all {n} FDP runs"
    return [
        claim("100% utilization: the conventional drive's WAF is at least 1.5x FDP's",
              lambda: (waf(row(100, "conv")) >= 1.5 * waf(row(100, "fdp")),
                       f"{waf(row(100, 'conv')):.3f} against {waf(row(100, 'fdp')):.3f}")),
        claim("100% utilization: FDP's WAF is at most 1.15 (the paper: about 1.03)",
              lambda: (waf(row(100, "fdp")) <= 1.15, f"{waf(row(100, 'fdp')):.3f}")),
        claim("100% utilization: FDP's write p99 is below the conventional drive's",
              lambda: (p99(row(100, "fdp")) < p99(row(100, "conv")),
                       f"{p99(row(100, 'fdp')) / 1e3:.1f} against {p99(row(100, 'conv')) / 1e3:.1f} ms")),
        claim("50% utilization: neither drive's GC copies more than 1% of the host's sectors (the LBAs the "
              "cache leaves unwritten are spare space)",
              lambda: (all(num(row(50, s), "ftl.gc_copied_sectors") <= 0.01 * num(row(50, s), "ftl.host_write_sectors")
                           for s in ("conv", "fdp")),
                       ", ".join(f"{s} {int(num(row(50, s), 'ftl.gc_copied_sectors')):,} of "
                                 f"{int(num(row(50, s), 'ftl.host_write_sectors')):,}" for s in ("conv", "fdp")))),
        claim("the conventional drive's WAF is lower at 50% utilization than at 100%",
              lambda: (waf(row(50, "conv")) < waf(row(100, "conv")),
                       f"{waf(row(50, 'conv')):.3f} against {waf(row(100, 'conv')):.3f}")),
        claim("100% utilization: persistent isolation is no worse than initial (within 5%)",
              lambda: (waf(row(100, "fdp-persistent")) <= 1.05 * waf(row(100, "fdp")),
                       f"{waf(row(100, 'fdp-persistent')):.3f} against {waf(row(100, 'fdp')):.3f}")),
        claim("the FDP statistics log's media bytes written and erased equal the NAND's own counts", logs_equal),
        claim("100% utilization, ZNS under a host FTL: end to end (its GC included) the log mixes the caches as the "
              "conventional drive does: WAF at least 1.5x FDP's",
              lambda: (waf(row(100, "zns")) >= 1.5 * waf(row(100, "fdp")),
                       f"{waf(row(100, 'zns')):.3f} against {waf(row(100, 'fdp')):.3f}")),
        claim("100% utilization, ZNS: the device itself programs what it is sent (no GC of its own: WAF 0.95 ... 1.05)",
              lambda: (0.95 <= device_waf(row(100, "zns")) <= 1.05, f"{device_waf(row(100, 'zns')):.3f}")),
    ]


@register
class ZnsFdp(Experiment):
    name = "zns-fdp"
    title = "Host-managed placement: a conventional drive, FDP, and ZNS under a host FTL"
    parts = PARTS
    checked = CHECKED
    schemes = list(SCHEMES)

    def runs(self, scale, parts=None):
        return runs(scale, parts or PARTS)

    def unusable(self, results, parts):
        rows = {t: r for t, r in results.items() if r is not None and r.get("config.nand.channels") is not None}
        scale = scale_of(rows) if rows else "full"   # no runs at all: every full-scale tag is missing
        return run_errors(results, sorted({r.tag for r in runs(scale, parts)}), logs_problem)

    def claims(self, results):
        return check_figures({t: r for t, r in results.items() if t.startswith("cachelib/")})

    def paper_findings(self, results):
        from .zns_fdp_report import findings
        return findings(results)

    def report(self, results, scale, report_dir, findings):
        from .zns_fdp_report import write_report
        return write_report(results, scale, report_dir, findings)
