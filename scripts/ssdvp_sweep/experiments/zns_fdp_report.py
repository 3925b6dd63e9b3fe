"""The host-managed interfaces' study report, written from the store rows of its runs:
docs/results/zns-fdp.md (full scale) or zns-fdp-scaled.md, with the plot zns-fdp[-scaled].png
(write amplification and write p99 over time of the CacheLib-like mix at 100% utilization, one
line per scheme). Every figure on the page is computed here from the runs' run.json (the store's
rows and run_dir), beside the published figures of docs/references.md (fdp-cachelib, fdp-warp,
zns-atc), so the page cannot drift from them.

Leaves out running and checking (zns_fdp.py). Needs matplotlib (Debian's, through the venv).
"""
import json
from datetime import date
from pathlib import Path

from . import checks_rows, checks_verdict, finding, findings_rows, num
from .zns_fdp import (DRIVE_WRITES, HOTCOLD_WRITES, SCHEMES, UTILISATIONS, cachelib_spec, check_figures,
                      device_waf, hotcold_spec, is_fdp, p99, scale_of, waf)

NAMES = {"conv": "conventional", "fdp": "FDP, 8 handles, initially isolated",
         "fdp-persistent": "FDP, 8 handles, persistently isolated", "zns": "ZNS under a host FTL (pblk)",
         "conv-ring": "conventional, pblk's ring as its buffer"}
PAPER = {50: (1.3, 1.03), 100: (3.5, 1.03)}   # [fdp-cachelib]: DLWA without / with FDP (Figs. 5, 6)


def prefix(scale):
    return "zns-fdp" if scale == "full" else "zns-fdp-scaled"


def series(row):
    """(host GiB written by the end of the interval, cumulative WAF, write p99 ms) per interval of
    the run's series."""
    run = json.loads((Path(row["run_dir"]) / "run.json").read_text())
    s = run["series"]
    gib, total = [], 0.0
    for b in s["ops"]["write"]["bytes"]:
        total += b / 2**30
        gib.append(total)
    w = s["device"]["waf"]
    p = [x / 1e3 for x in s["ops"]["write"]["p99_us"]]
    return gib, w, p


def plot(results, scale, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    for s in SCHEMES:
        tag = f"cachelib/100/{s}"
        if tag not in results:
            continue
        t, w, p = series(results[tag])
        a.plot(t, w, label=NAMES[s])
        b.plot(t, p, label=NAMES[s], linewidth=0.8)
    a.set_xlabel("host GiB written")
    a.set_ylabel("WAF since the start (end to end)")
    a.set_title("CacheLib-like mix, 100% utilization")
    b.set_xlabel("host GiB written")
    b.set_ylabel("write p99 per interval, ms")
    b.set_yscale("log")
    b.set_title("write p99 over time")
    for ax in (a, b):
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def row_line(tag, r):
    fdp_waf = f"{num(r, 'fdp.statistics.waf'):.3f}" if is_fdp(tag) else "—"
    return (f"| {tag} | {waf(r):.3f} | {device_waf(r):.3f} | {fdp_waf} | {num(r, 'ops.write.mbps'):.1f} | "
            f"{p99(r) / 1e3:.1f} | {num(r, 'ops.write.latency_us.p99.9') / 1e3:.1f} | "
            f"{int(num(r, 'ftl.gc_copied_sectors')):,} | {int(num(r, 'ftl.erases')):,} |")


def table(results):
    rows = ["| run | WAF end to end | WAF of the device | WAF (FDP log, since power-on) | write MB/s | write p99 ms | "
            "write p99.9 ms | GC copied sectors | erases |", "|---|---|---|---|---|---|---|---|---|"]
    return rows + [row_line(t, results[t]) for t in sorted(results)]


def findings(results):
    scale = scale_of(results)
    out = []
    for u in UTILISATIONS[scale]:
        conv, fdp = results.get(f"cachelib/{u}/conv"), results.get(f"cachelib/{u}/fdp")
        if conv is None or fdp is None:
            continue
        without, with_ = PAPER[u]
        out.append(finding(
            f"[fdp-cachelib] KV cache at {u}% utilization: DLWA {without} without FDP, {with_} with it",
            lambda conv=conv, fdp=fdp, u=u: (
                f"{waf(conv):.3f} conventional, {waf(fdp):.3f} with FDP",
                waf(fdp) <= 1.15 and (waf(conv) >= 1.5 * waf(fdp) if u == 100 else waf(fdp) <= waf(conv)))))
    conv, fdp = results.get("cachelib/100/conv"), results.get("cachelib/100/fdp")
    if conv is not None and fdp is not None:
        out.append(finding("[fdp-cachelib] 100% utilization: p99 write latency 10x better with FDP",
                           lambda: (f"{p99(conv) / p99(fdp):.1f}x ({p99(conv) / 1e3:.1f} against {p99(fdp) / 1e3:.1f} ms)",
                                    p99(conv) > 2 * p99(fdp))))
        out.append(finding("[fdp-cachelib] throughput unchanged by FDP (Table 2: within 3%)",
                           lambda: (f"write MB/s {num(conv, 'ops.write.mbps'):.1f} conventional, "
                                    f"{num(fdp, 'ops.write.mbps'):.1f} with FDP",
                                    abs(num(fdp, "ops.write.mbps") / num(conv, "ops.write.mbps") - 1) <= 0.1)))
    return out


def regions_here(results):
    c, f = results.get("regions/50/conv"), results.get("regions/50/fdp")
    if c is None or f is None:
        return "no regions/50 run in this store"
    return (f"WAF {waf(c):.3f} conventional and {waf(f):.3f} with FDP, "
            f"{int(num(c, 'ftl.gc_copied_sectors')):,} and {int(num(f, 'ftl.gc_copied_sectors')):,} sectors copied")


def regions_copy(results):
    c = results.get("regions/50/conv")
    return c is not None and num(c, "ftl.gc_copied_sectors") > 0


def zns_here(results):
    z, c = results.get("cachelib/100/zns"), results.get("cachelib/100/conv")
    if z is None or c is None:
        return "no ZNS run in this store"
    return (f"CacheLib-like mix at 100%: end to end {waf(z):.3f} (host GC included) against {waf(c):.3f} "
            f"conventional; the device itself {device_waf(z):.3f}; write {num(z, 'ops.write.mbps'):.1f} against "
            f"{num(c, 'ops.write.mbps'):.1f} MB/s")


def explanations(results, scale):
    r = results
    lines = []
    if "cachelib/100/conv" in r and "cachelib/100/fdp" in r:
        c, f = r["cachelib/100/conv"], r["cachelib/100/fdp"]
        lines += [
            "* **Why the conventional drive amplifies.** Its write buffer drains in arrival order, so every "
            "superblock holds both caches' data, about half each (equal bytes). The small object cache rewrites its "
            "4% of the LBAs over and over: its sectors in a superblock are dead soon after it is written. The large "
            "object cache's sectors live until its log comes round again, a whole pass of 96% of the drive later. "
            "Greedy GC takes the superblock with the fewest valid sectors, which is one whose SOC half has died and "
            "whose LOC half still lives, and copies that half: "
            f"{int(num(c, 'ftl.gc_copied_sectors')):,} sectors copied for {int(num(c, 'ftl.host_write_sectors')):,} "
            f"written, WAF {waf(c):.3f}.",
            "* **Why FDP does not.** The two caches' data never share a superblock. A LOC superblock dies whole "
            "when the log passes it, and GC takes it with nothing to copy. The SOC's superblocks take all of the "
            "drive's spare space between them, so the SOC's random writes find victims that are almost empty: "
            f"{int(num(f, 'ftl.gc_copied_sectors')):,} sectors copied, WAF {waf(f):.3f}.",
            f"* **Tail latency.** A host write waits for buffer space, and the buffer waits for GC. The conventional "
            f"drive's write p99 is {p99(c) / 1e3:.1f} ms, FDP's {p99(f) / 1e3:.1f} ms "
            f"({p99(c) / p99(f):.1f}x); the paper measured 10x at 100%.",
        ]
    if "cachelib/100/zns" in r:
        z = r["cachelib/100/zns"]
        lines.append(
            "* **ZNS under the host FTL** moves the FTL, not the placement. The device only writes zones at their "
            f"write pointers and resets them, so its own WAF is {device_waf(z):.3f}. The host FTL above it keeps "
            "one log per die and collects zones greedily, as the conventional drive's FTL collects superblocks. "
            f"End to end it amplifies {waf(z):.3f}" +
            (f", where the conventional drive amplified {waf(r['cachelib/100/conv']):.3f}" if "cachelib/100/conv" in r else "") +
            (f" and the conventional drive with the host FTL's own write buffer (pblk's ring) "
             f"{waf(r['cachelib/100/conv-ring']):.3f}" if "cachelib/100/conv-ring" in r else "") +
            ". The same FTL code runs in both; what differs is its write buffer (pblk's ring, which the "
            "conventional drive with the ring measures), the flash it sees (one plane whose page is the zone's "
            "write unit), its GC on host CPUs with every copy crossing the PCIe link twice, and a device that "
            "acknowledges each program once it is in the zone's window. Which of these makes the gap between the "
            "two is not measured here.")
    if "cachelib/50/conv" in r:
        c = r["cachelib/50/conv"]
        lines.append(
            "* **At 50% utilization** the LBAs the cache never writes are spare space for the FTL. That is the "
            f"host over-provisioning production CacheLib keeps for this reason (the paper's section 2.3). The "
            f"conventional drive's WAF falls to {waf(c):.3f}.")
    if "hotcold/conv" in r and "hotcold/fdp" in r:
        c, f = r["hotcold/conv"], r["hotcold/fdp"]
        lines.append(
            "* **Hot and cold by address** (80% of the writes to 20% of the LBAs, random within each) gains little "
            f"from separation: WAF {waf(c):.3f} conventional, {waf(f):.3f} with FDP. Both kinds die at random "
            "times, so a superblock of hot data is no emptier when GC takes it than a mixed one. Greedy GC on 7% "
            "over-provisioning already spends the spare space where the invalid sectors are. A model of greedy GC "
            "on the same mix predicts the same thing: 7.46 mixed, 7.42 separated at the host, 7.09 separated "
            "through GC too. FDP pays off where lifetimes differ in kind (a log beside random rewrites), not in "
            "rate alone.")
    return lines


def page(results, scale, findings_list, errors):
    pre = prefix(scale)
    any_run = next(iter(results.values()))
    title = "host-managed placement" + ("" if scale == "full" else " (scaled)")
    geometry = ("the default platform (8 channels x 4 ways, 16 GiB, 16 MiB write buffer)" if scale == "full"
                else "the default platform with 2 channels x 2 ways (2 GiB) and a 3 MiB write buffer")
    checks = check_figures({t: r for t, r in results.items() if t.startswith("cachelib/")})
    lines = [
        f"# ZNS and FDP: {title}", "",
        "<!-- Written by scripts/ssdvp_sweep/experiments/zns_fdp_report.py from the runs it quotes: edit the "
        "script, not this page. -->", "",
        "Two host-managed interfaces let the host keep data with different lifetimes apart on the flash. Flexible "
        "Data Placement ([fdp](../references.md#fdp), docs/fdp.md) lets it name a reclaim unit handle per write on a "
        "drive that keeps its own FTL. Zoned Namespaces ([zns](../references.md#zns), docs/zns.md) hand it the "
        "zones and leave GC to it. This page measures both on mixes with different lifetimes: FDP on the "
        "conventional drive, and ZNS under a log-structured host FTL (the project's FTL as pblk on host CPUs: its "
        "map and GC on the host, a zone one of its blocks; docs/host-ftl.md). That host FTL places data as the "
        "conventional drive does, in one log. What ZNS would buy an application that places its own data (ZenFS, "
        "a zoned CacheLib) is not measured here.", "",
        "## Setup", "",
        f"* **Device**: {geometry}: MLC, 2 planes, 512 blocks of 128 pages of 4 KiB, 7% over-provisioning, "
        "greedy GC. FDP: `ftl.fdp.handles = 8` and one reclaim group, as the Samsung PM9D3 of "
        "[fdp-cachelib](../references.md#fdp-cachelib); `initially` isolated as that drive, and `persistently` "
        "isolated as a what-if. ZNS: the same flash as a zoned device (`device.interface = zns`, a zone one block "
        "on each plane of one die, 1 MiB), open and active zones 3 a die (chosen: what a log per die needs), "
        "pblk on the host with its ring (`host.ftl = pblk`, `ftl.write_buffer = ring`), its fill written through "
        "it (`precondition.mode = timed`).",
        f"* **CacheLib-like mix** (`cachelib/U`): CacheLib's flash cache on U% of the drive, from an empty drive. "
        "The paper trims the whole device first. The small object cache takes the first 4% of the cache's space "
        "(the paper's default) and gets random 4 KiB writes from 16 jobs (placement index 1). The large object "
        "cache is a log over the other 96%, written with 64 KiB sequential writes by one job and wrapping "
        "(index 2). Each job keeps 4 requests outstanding. The two caches write equal bytes; the paper does not "
        f"give the split, so it is chosen. The run writes {DRIVE_WRITES[scale]} drive capacities in all. At 100%:",
        "", f"  `{cachelib_spec(scale, 100, True)}`", "",
        f"* **Hot/cold mix** (`hotcold`, full scale only): `{hotcold_spec(scale, True)}` on a drive that was "
        f"filled and then half overwritten at random, {HOTCOLD_WRITES} drive capacities. Hot writes use index 1, "
        "cold writes index 2.",
        "* **Figures**: the device's WAF over the run (programmed / host sectors, run.json `waf`). Without host GC "
        "this is also the end-to-end WAF. The FDP statistics log's WAF (media / host bytes since power-on, "
        "read by the host at the end) is shown beside it. Also write throughput, write p99 and p99.9 over the "
        "run, and per second of simulated time in the plot (against the host's GiB written).", "",
        "```",
        f"scripts/reproduce.py --scale {scale} --only zns-fdp                 # runs, checks, this page",
        f"scripts/zns_fdp_experiment.py --scale {scale} --report docs/results # the same",
        "```", "",
        f"Written on {date.today().isoformat()} from the {len(results)} runs of the store (ssdvp build "
        f"`{any_run['build']}`); simulated figures do not depend on the machine.", "",
        "## Results", ""] + table(results) + [
        "", f"![WAF and write p99 over time]({pre}.png)", "",
        "## Beside the published measurements", "",
        "| source | setting | their figure | here |", "|---|---|---|---|"]
    for u in UTILISATIONS[scale]:
        c, f = results.get(f"cachelib/{u}/conv"), results.get(f"cachelib/{u}/fdp")
        if c is not None and f is not None:
            lines.append(f"| [fdp-cachelib](../references.md#fdp-cachelib) Fig. {5 if u == 50 else 6} | CacheLib KV "
                         f"cache, SOC 4%, {u}% utilization, PM9D3 | DLWA {PAPER[u][0]} without FDP, {PAPER[u][1]} "
                         f"with | {waf(c):.3f} / {waf(f):.3f} |")
    c, f = results.get("cachelib/100/conv"), results.get("cachelib/100/fdp")
    if c is not None and f is not None:
        lines.append("| [fdp-cachelib](../references.md#fdp-cachelib) section 6.3 | the same at 100% | p99 write "
                     f"10x better with FDP | {p99(c) / p99(f):.1f}x |")
        lines.append("| [fdp-warp](../references.md#fdp-warp) Fig. 6 | CacheLib kvcache trace, SOC 4%, 7.68 TB FDP "
                     f"SSD | 1.10 without FDP, 1.0 with | {waf(c):.3f} / {waf(f):.3f} (100%) |")
    lines += [
        "| [zns-atc](../references.md#zns-atc) Fig. 1, section 5.2 | random writes, 2 TiB media, conventional "
        "7% OP against ZNS; RocksDB | 370 against 1010 MiB/s; WAF 2.0 (XFS) against 1.0 (ZenFS) | " + zns_here(results) +
        " |", "",
        "Where they differ, and why:", "",
        "* The paper's conventional drive amplifies 3.5x at 100% utilization. Ours amplifies more, because this "
        "mix gives the small object cache half of the bytes; the paper's cache mixes the two as its traces do. "
        "Both FDP figures sit near 1.0, as the paper's 1.03 does. WARP's drive measured 1.10 without FDP on the "
        "kvcache trace at SOC 4%, a milder mix again: how much the conventional drive suffers depends on the "
        "byte split between the caches, and ours is chosen, not measured.",
        "* At 50% utilization the paper's conventional drive still amplifies 1.3x; ours does not copy at all. "
        "Our large object cache is a strict FIFO log, so a superblock's LOC data dies together one pass after it "
        "was written, and the unwritten half of the drive leaves GC empty victims. With its 16 MiB regions "
        "rewritten in no particular order instead (`regions/50`, `run_length`): " + regions_here(results) +
        (". Region order moves the conventional drive the paper's way, not as far" if regions_copy(results) else
         ". Region order alone does not make it copy here") +
        ": a region fills whole superblocks of every die (1 MiB each), so most of it still dies whole. A drive whose erase unit is "
        "gigabytes (the PM9D3's reclaim units are about 6 GB) mixes many regions' lifetimes in each, which may "
        "be the rest of the paper's 1.3 (not measured: this geometry's superblocks cannot be that large). "
        "Below 1 here is the write buffer, which absorbs the small object cache's rewrites of sectors still "
        "buffered. FDP's separate queues drain the SOC's superpages sooner, so it absorbs a little less "
        "(no GC is involved).",
        "* Throughput: the paper's CacheLib is bound by its hit path, not the drive, and FDP leaves it "
        "unchanged (Table 2). These closed-loop writers are bound by the drive, so FDP's fewer programs and "
        "erases become write throughput here" + (
            f" ({num(c, 'ftl.erases') / num(f, 'ftl.erases'):.1f}x fewer erases, "
            f"{num(f, 'ops.write.mbps') / num(c, 'ops.write.mbps'):.1f}x the MB/s at 100%)" if c is not None and f is not None
            else "") + ". The same cause, seen through another host.",
        "* Our reclaim unit is a superblock on each die, where the PM9D3's is about 6 GB. That leaves GC more, "
        "smaller victims, and no RU ever holds data of two handles.", "",
        "## Why", ""] + explanations(results, scale) + [
        "", "## Findings", ""] + findings_rows(findings_list) + [
        "", "## Checks in the test suite", "",
        "`ctest -R zns-fdp` runs the scaled configuration through the sweep engine and "
        "`scripts/zns_fdp_experiment.py --check`. It requires every run to be present and clean, and the FDP logs "
        "to have been read. Then, with the figures of this run:", "",
        ] + checks_rows(checks) + [
        "", checks_verdict(errors), "",
        "## Weak", "",
        "* **ZNS here is a host FTL's, not an application's.** The host FTL over zones is the device FTL moved to "
        "the host, one log per die with greedy GC, so it mixes the caches as the conventional drive does. The "
        "published ZNS gains come from applications that place their own data in zones (ZenFS's files by "
        "lifetime); no such application runs here. Zone Append, zone finish and the device's own power-loss "
        "dump are not used.",
        "* The mixes are synthetic. CacheLib's real traces (Meta's KV cache, Twitter) are not replayed: their "
        "caches' byte split, object sizes and reinsertions differ from these fixed ratios.",
        "* One seed and one run per point. The conventional drive's WAF still rises at the end of the 100% run "
        "(the plot), so it is not yet at steady state; the paper ran 60 hours.",
        "* FDP's reclaim units are per-die superblocks, not the drive-wide erase units of shipping FDP SSDs "
        "(docs/fdp.md, Weak).", ""]
    return "\n".join(lines)


def write_report(results, scale, report_dir, findings_list):
    from .zns_fdp import ZnsFdp
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    pre = prefix(scale)
    plot(results, scale, report_dir / f"{pre}.png")
    page_path = report_dir / f"{pre}.md"
    page_path.write_text(page(results, scale, findings_list, ZnsFdp().checks(results)))
    return [page_path, report_dir / f"{pre}.png"]

