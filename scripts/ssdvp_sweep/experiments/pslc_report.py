"""The pSLC experiment's report, written from the store rows of its runs: docs/results/pslc.md
(full scale) or pslc-scaled.md, with the plot pslc[-scaled].png (write MiB/s against the GiB
written, one line per scheme). Every figure on the page is computed here from the runs'
throughput.csv and run.json (the store's run_dir), so the page cannot drift from them.

Leaves out running and checking (pslc.py). Needs matplotlib (Debian's, through the venv).
"""
from datetime import date
from pathlib import Path

from . import checks_rows, checks_verdict, count, num
from .pslc import (BS_KIB, CACHE_GIB, GIB, INTERVAL_MS, IODEPTH, SCHEMES, all_figures, check_figures, series,
                   workload)

NAMES = {"tlc": "TLC, no cache", "slc-cache": "SLC cache (slc-only)", "lapt": "LAPT on the cache",
         "combo": "ComboFTL on the cache"}


def prefix(scale):
    return "pslc" if scale == "full" else "pslc-scaled"


def plot(results, scale, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for s in SCHEMES:
        pts = series(results[f"sustained/{s}"])
        ax.plot([g for g, _ in pts], [r for _, r in pts], label=NAMES[s], linewidth=3 if s == "slc-cache" else 1.2,
                alpha=0.6 if s == "slc-cache" else 1.0, linestyle="--" if s == "combo" else "-")
    ax.axvline(CACHE_GIB, color="grey", linewidth=0.8, linestyle=":")
    ax.text(CACHE_GIB, ax.get_ylim()[1] * 0.95, " cache size", color="grey", va="top")
    ax.set_xlabel("GiB written (sequential, 128 KiB, QD32, fresh drive)")
    ax.set_ylabel(f"write MiB/s (per {INTERVAL_MS} ms)")
    ax.set_yscale("log")
    ax.set_title(f"pslc-tlc: sustained sequential write ({scale})")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def placed(r, gib):
    """GiB of host data written to SLC / TLC; without placement (no cache) all of it to TLC."""
    if r.get("config.ftl.placement") == "none":
        return "— / all"
    return f"{num(r, 'placement.host_slc_sectors') * gib:.2f} / {num(r, 'placement.host_mlc_sectors') * gib:.2f}"


def table(results, f):
    rows = ["| scheme | burst MiB/s | falls off at GiB | sustained MiB/s | mean MiB/s | host to SLC / TLC (GiB) | "
            "migrated GiB | SLC GC runs |", "|---|---|---|---|---|---|---|---|"]
    gib = 4096 / 2**30
    for s in SCHEMES:
        r, x = results[f"sustained/{s}"], f[s]
        knee = f"{x['knee']:.2f}" if x["knee"] is not None else "—"
        rows.append(f"| {NAMES[s]} | {x['burst']:.0f} | {knee} | {x['sustained']:.1f} | {num(r, 'ops.write.mbps') / 1.048576:.1f} | "
                    f"{placed(r, gib)} | {count(r, 'placement.migrated_sectors') * gib:.2f} | "
                    f"{int(count(r, 'placement.slc_gc_runs')):,} |")   # count: no cache (tlc), no placement.*
    return rows


def explanations(results, f):
    c = results["sustained/combo"]
    units_quota = int(num(c, "config.ftl.combo.unit_blocks") + num(c, "config.ftl.combo.unit_extra_blocks"))
    dies = int(num(c, "config.nand.channels") * num(c, "config.nand.ways"))
    tlc, cache, lapt = f["tlc"], f["slc-cache"], f["lapt"]
    r = results["sustained/lapt"]
    gib = 4096 / 2**30
    # Die time a 8 KiB superpage (2 planes x 4 KiB) costs: direct TLC program, or SLC program +
    # SLC read + TLC program when it passes through the cache (TLC's mean tPROG over the three
    # page types; pslc-tlc.toml's figures).
    tlc_prog, slc_prog, slc_read = 3000.0, 300.0, 30.0
    folded = tlc_prog / (tlc_prog + slc_prog + slc_read)
    return [
        f"* **Burst.** Until the cache is full every write is an SLC-mode program (300 µs for a 2-plane page "
        f"of 8 KiB on each of 32 dies: {32 * 8 / 1024 / 300e-6:.0f} MiB/s of die time); the plain cache measured "
        f"{cache['burst']:.0f} MiB/s, {cache['burst'] / tlc['sustained']:.1f}x the drive without a cache "
        f"({tlc['sustained']:.1f} MiB/s: 3 ms TLC programs, {32 * 8 / 1024 / 3e-3:.0f} MiB/s of die time).",
        f"* **The fall.** FIFO SLC GC starts when a die's SLC pool is down to `ftl.gc_low_blocks` free superblocks, so "
        f"the cache is nearly full when the throughput falls: at {cache['knee']:.2f} GiB of the "
        f"{CACHE_GIB:.2f} GiB cache (the write buffer and the GC threshold account for the rest)."
        if cache["knee"] is not None else "* **The fall.** The plain cache never fell below half its burst.",
        f"* **After it.** A plain cache that is full writes every byte twice, and the dies' time per 8 KiB becomes "
        f"SLC program + SLC read + TLC program instead of a TLC program: at most {folded:.2f}x the direct speed "
        f"({folded * tlc['sustained']:.1f} MiB/s); measured {cache['sustained']:.1f} MiB/s "
        f"({cache['sustained'] / tlc['sustained']:.2f}x), the rest being GC's reads and programs waiting on each "
        "other in a die's queue. Real drives show the same cliff below their direct-to-TLC speed when they fold "
        "while the host writes.",
        f"* **LAPT.** Its table counts writes per logical block (one SLC-mode superblock's worth: 64 pages x 2 "
        f"planes x 4 KiB = 512 KiB; the cache holds {int(CACHE_GIB * 2048):,} of them); on a sequential write every block is "
        "written once, and a new block's counter (0, before its write) ranks it with the never-written blocks, "
        "below the SLC region's size once more blocks have been written than the cache holds: from then on LAPT "
        f"sends the stream to TLC directly. It put {num(r, 'placement.host_slc_sectors') * gib:.2f} GiB in the "
        f"cache and {num(r, 'placement.host_mlc_sectors') * gib:.2f} GiB straight to TLC, and sustained "
        f"{lapt['sustained']:.1f} MiB/s against the plain cache's {cache['sustained']:.1f} "
        f"({lapt['sustained'] / tlc['sustained']:.2f}x direct TLC).",
        "* **ComboFTL** sends writes over 16 KiB to TLC (its size rule), so a 128 KiB stream never touches the "
        f"cache ({int(num(c, 'placement.host_slc_sectors')):,} sectors to it). It is slower than the drive without a "
        f"cache ({f['combo']['burst']:.0f} against {f['tlc']['burst']:.0f} MiB/s) because of its unit-mapped TLC "
        f"(docs/ftl-guide.md): a unit of {int(num(c, 'config.ftl.combo.unit_blocks'))} TLC superblocks "
        f"({int(num(c, 'placement.units')):,} units) writes into at most {units_quota} superblocks at once, on as many "
        f"dies, and a sequential stream fills one unit after another, so {units_quota} of the drive's "
        f"{dies} dies program at a time where a page map stripes over all of them. Set "
        "`ftl.combo.unit_blocks` to the number of dies or more to give a unit the whole drive's parallelism "
        "(ComboFTL was designed for small embedded MLC devices).",
    ]


def page(results, scale, findings, errors):
    f = all_figures(results)
    pre = prefix(scale)
    any_run = results["sustained/tlc"]
    title = "sustained writes through a pSLC cache" + ("" if scale == "full" else " (scaled)")
    checks = check_figures(f)
    lines = [
        f"# pSLC write cache: {title}", "",
        "<!-- Written by scripts/ssdvp_sweep/experiments/pslc_report.py from the runs it quotes: edit the script, "
        "not this page. -->", "",
        "Consumer SSDs write into an SLC cache made of SLC-mode blocks on their TLC dies (pSLC) and fold the data "
        "into TLC later; drive reviews plot write speed over a long sequential write, which falls off when the "
        "cache is full. The same placement policies as in the LAPT experiment (docs/results/lapt.md; the papers: [lapt](../references.md#lapt), [comboftl](../references.md#comboftl)) run here on a "
        "homogeneous TLC drive whose cache is made of pSLC blocks (docs/ftl-guide.md, \"SLC/MLC placement\").", "",
        "## Setup", "",
        "* **Device**: `platforms/pslc-tlc.toml`: the default platform's geometry (8 channels x 4 ways, 2 planes, "
        "512 blocks per plane, 4 KiB pages, 400 MB/s channels, PCIe Gen3 x4) with TLC dies (192 pages, tPROG "
        "3000 µs, tR 90 µs); the first 32 blocks of every plane run in SLC mode (64 pages, tPROG 300 µs, tR 30 µs): "
        f"a static cache of {CACHE_GIB:.2f} GiB. The logical capacity is what the native blocks hold less 7% (the "
        "cache is carved out of the raw capacity, not of the exported one). Without a cache (`tlc`) the same "
        "drive has `nand.pslc.blocks_per_plane = 0`.",
        f"* **Workload**: `{workload(scale)}` ({GIB[scale]:g} GiB, {BS_KIB} KiB sequential writes at queue depth "
        f"{IODEPTH} from LBA 0) on a fresh drive (`precondition.fill = 0`); the throughput is sampled every "
        f"{INTERVAL_MS} ms (`sim.series_interval_ms`, throughput.csv).",
        "* **Figures**: *burst* = mean MiB/s over the first half of the cache's size written; *falls off at* = the "
        "GiB written when an interval first falls below half the burst; *sustained* = mean over the second half of "
        "the data written; *mean* = the whole run (run.json).", "",
        "```",
        f"scripts/reproduce.py --scale {scale} --only pslc                 # runs, checks, this page",
        f"scripts/pslc_experiment.py --scale {scale} --report docs/results # the same",
        "```", "",
        f"Written on {date.today().isoformat()} from the {len(results)} runs of the store (ssdvp build "
        f"`{any_run['build']}`); simulated figures do not depend on the machine.", "",
        "## Write speed over the data written", "",
        f"![sustained write]({pre}.png)", ""] + table(results, f) + [
        "", "Host to SLC / TLC and migrated: the run's window (run.json), which ends before the final flush.", "",
        "## Why", ""] + explanations(results, f) + [
        "", "## Checks in the test suite", "",
        "`ctest -R pslc` runs the scaled configuration (1.5 GiB) through the sweep engine and "
        "`scripts/pslc_experiment.py --check`: every run present and complete with its throughput.csv and every "
        f"write done, then (figures of this {scale} run):", "",
        ] + checks_rows(checks) + [
        "", checks_verdict(errors), "",
        "## Weak", "",
        "* The cache is static (a fixed set of blocks in SLC mode); shipping drives also use a dynamic cache that "
        "grows into free TLC blocks and shrinks as the drive fills, so their cliff moves with the fill level. Not "
        "modelled.",
        "* Folding competes with host writes here: the FIFO SLC GC runs when the cache is nearly full and the "
        "firmware has no direct-to-TLC bypass for a plain cache; drives that switch to direct writes when the cache "
        "is exhausted keep the TLC speed after the cliff (LAPT behaves like that on this stream, for its own reason).",
        "* Idle recovery (the cache emptied while the host is idle, `ftl.idle_migration_us`) is not in this curve: "
        "docs/ftl-guide.md measures its effect on the next burst.",
        "* One stream, one seed, a fresh drive: a full or aged drive has fewer free native blocks, so folding "
        "collides with TLC GC too.", ""]
    return "\n".join(lines)


def write_report(results, scale, report_dir, findings):
    from .pslc import Pslc
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    pre = prefix(scale)
    plot(results, scale, report_dir / f"{pre}.png")
    page_path = report_dir / f"{pre}.md"
    page_path.write_text(page(results, scale, findings, Pslc().checks(results)))
    return [page_path, report_dir / f"{pre}.png"]
