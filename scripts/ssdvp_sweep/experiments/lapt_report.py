"""The LAPT experiment's report, written from the store rows of its runs: docs/results/lapt.md
(full scale) or lapt-scaled.md, with the plots lapt[-scaled]-total.png (total time per workload
and scheme in the paper's setting and with the write cache, normalised to MLC_homo) and
lapt[-scaled]-slc-sweep.png (against the SLC block count). Every table, plot and figure in the
prose is computed here or in lapt_explain.py from those runs (so the page cannot drift from
them); the workloads' statistics are read from the trace files the runs replayed; per-die
utilisation from each run's run.json (the store's run_dir).

Leaves out running (lapt.py), the suite's orderings (lapt_checks.py) and the findings' prose
(lapt_explain.py). Needs matplotlib (Debian's, through the venv).
"""
from datetime import date
from pathlib import Path

from . import checks_verdict, findings_rows
from .lapt import (CHECKED, DEVICES, IODEPTH, PAPER_SLC_BLOCKS, PARTS, PROFILES,
                   SCHEMES, SPAN_SECTORS, SWEEP_SCHEMES, SWEEP_WORKLOADS, TIE, TIE_ORDER, WORKLOADS, Lapt, _profiles,
                   by_part, expected_tags, margin, mean_norm, norm, num, remap_tpcc, scale_of, sweep_blocks, sweep_norm,
                   scheme_settings, trace_of)
from .lapt_checks import CHOSEN_ON, check_figures, left_out
from .lapt_explain import MIB, NAMES, SECTOR, dies_util, explanations, gc_runs, i, kib, read_share, write_mean

SHOWN = [s for s in SCHEMES if s != "mlc-homo"]
PAPER_TABLE2 = {"exchange": (204_571, 0.79, 24.83), "photoshop": (23_498, 0.29, 414.21),
                "random": (33_740, 0.99, 8.28), "general": (300_000, 0.23, 27.67), "tpcc": (348_644, 0.37, 18.28)}


def prefix(scale):
    return "lapt" if scale == "full" else "lapt-scaled"


# ---- plots --------------------------------------------------------------------------------------

def plot_total(parts, scale, path):
    """One panel per setting (part): bars per workload and scheme, normalised to MLC_homo."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(parts), 1, figsize=(8, 3.6 * len(parts)), sharey=True)
    axes = axes if len(parts) > 1 else [axes]
    ticks = [0.125, 0.25, 0.5, 1, 2, 4, 8, 16]
    values = [norm(t, w, s) for _, t in parts for w in WORKLOADS for s in SHOWN]
    shown_ticks = [v for v in ticks if min(values) / 2 <= v <= max(values) * 2]
    width = 0.8 / len(SHOWN)
    for ax, (title, t) in zip(axes, parts):
        for k, s in enumerate(SHOWN):
            xs = [w + (k - (len(SHOWN) - 1) / 2) * width for w in range(len(WORKLOADS) + 1)]
            ax.bar(xs, [norm(t, w, s) for w in WORKLOADS] + [mean_norm(t, s)], width, label=NAMES[s])
        ax.axhline(1.0, color="black", linewidth=0.8, label="MLC_homo")
        ax.set_yscale("log")
        ax.set_yticks(shown_ticks, [f"{v:g}" for v in shown_ticks])
        ax.minorticks_off()
        ax.set_xticks(range(len(WORKLOADS) + 1), WORKLOADS + ["mean"])
        ax.set_ylabel("total time / MLC_homo (log)")
        ax.set_title(f"{title} (QD{IODEPTH}, {scale})", fontsize=10)
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[0].legend(fontsize=8, ncol=3, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_sweep(s, scale, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(SWEEP_WORKLOADS), figsize=(9, 3.8), sharey=True)
    for ax, w in zip(axes, SWEEP_WORKLOADS):
        for x in SWEEP_SCHEMES:
            ax.plot(sweep_blocks(x), [sweep_norm(s, w, x, b) for b in sweep_blocks(x)], marker="o", label=NAMES[x])
        ax.axhline(1.0, color="black", linewidth=0.8, label="MLC_homo")
        ax.set_xscale("log", base=2)
        ax.set_xticks(PAPER_SLC_BLOCKS, [str(b) for b in PAPER_SLC_BLOCKS])
        ax.set_xlabel("SLC blocks")
        ax.set_title(w)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("total time / MLC_homo")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Total time against the SLC block count, the paper's setting ({scale})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---- tables -------------------------------------------------------------------------------------

def flash_text(r):
    dies = int(r["config.nand.channels"] * r["config.nand.ways"])
    slc = int(r.get("config.nand.slc_dies", 0))
    bpp, planes = int(r["config.nand.blocks_per_plane"]), int(r["config.nand.planes"])
    if slc:
        sbpp = int(r["config.nand.slc.blocks_per_plane"]) or bpp
        return (f"{slc} SLC die x {planes} planes x {sbpp} blocks ({slc * planes * sbpp} SLC blocks) + "
                f"{dies - slc} MLC dies x {planes} x {bpp} ({(dies - slc) * planes * bpp:,} MLC blocks)")
    cell = str(r["config.nand.cell"]).upper()
    return f"{dies} {cell} dies x {planes} planes x {bpp} blocks ({dies * planes * bpp:,} {cell} blocks)"


def device_rows(results):
    """The devices of the paper's setting and of the eight-die diagnostic, from their runs."""
    rows = ["| device | platform file | channels | flash | logical capacity | write cache |", "|---|---|---|---|---|---|"]
    for part, label in (("total", "the paper's"), ("eight-die", "eight dies (diagnostic)")):
        t = by_part(results, part)
        if not t:
            continue
        for device, scheme in (("mlc-homo", "mlc-homo"), ("slc-homo", "slc-homo"), ("mixed", "lapt")):
            r = t[f"exchange/{scheme}"]
            logical = num(r, "ftl.logical_sectors")
            rows.append(f"| {label} {device} | `{DEVICES[PARTS[part][0]][device]}` | {int(r['config.nand.channels'])} | "
                        f"{flash_text(r)} | {logical * SECTOR / MIB:.0f} MiB ({i(logical)} sectors) | "
                        f"{'on' if PARTS[part][1] else 'off'} |")
    return rows


def scheme_rows():
    rows = ["| scheme | device | `ftl.placement` | other settings (the paper's setting) |", "|---|---|---|---|"]
    for s, (device, placement) in SCHEMES.items():
        extra = ", ".join(f"`{k} = {v}`" for k, v in scheme_settings(s)) or "—"
        rows.append(f"| {NAMES[s]} | {device} | `{placement}` | {extra} |")
    return rows


def workload_rows(results):
    prof = _profiles()
    rows = ["| workload | source | requests (paper / here) | writes (paper / here) | mean write, sectors "
            "(paper / here) | mean read, sectors | 4 KiB pages touched |", "|---|---|---|---|---|---|---|"]
    for w in WORKLOADS:
        st = prof.stats(trace_of(results[f"total/{w}/mlc-homo"]))
        n, wf, ws = PAPER_TABLE2[w]
        src = "lapt_profiles.py (synthetic)" if w in PROFILES else "tpcc-small.trace (real, remapped)"
        rows.append(f"| {w} | {src} | {n:,} / {st['requests']:,} | {wf:.0%} / {st['write_fraction']:.1%} | "
                    f"{ws:.2f} / {st['mean_write_sectors']:.2f} | {st['mean_read_sectors']:.1f} | "
                    f"{st['distinct_pages']:,} ({100 * st['distinct_pages'] * 8 / SPAN_SECTORS:.0f}% of the span) |")
    return rows


def norm_rows(t, schemes=SHOWN):
    rows = ["| workload | MLC_homo (s) | " + " | ".join(NAMES[s] for s in schemes) + " |",
            "|---|---|" + "---|" * len(schemes)]
    for w in WORKLOADS:
        rows.append(f"| {w} | {t[f'{w}/mlc-homo']['sim_time_s']:.2f} | "
                    + " | ".join(f"{norm(t, w, s):.2f}" for s in schemes) + " |")
    rows.append("| **mean** | 1 | " + " | ".join(f"**{mean_norm(t, s):.2f}**" for s in schemes) + " |")
    return rows


def detail_rows(t):
    rows = ["| workload | scheme | time (s) | x MLC_homo | host sectors to SLC / MLC | SLC GC runs | MLC GC runs | "
            "migrated to MLC | kept in SLC by GC | read mean (µs) | write mean (µs) | writes' share of the time | "
            "die busy: SLC / other |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for w in WORKLOADS:
        for s in SCHEMES:
            r = t[f"{w}/{s}"]
            slc_util, other = dies_util(r)
            mixed = "placement.slc_gc_runs" in r
            host = (f"{i(num(r, 'placement.host_slc_sectors'))} / {i(num(r, 'placement.host_mlc_sectors'))}" if mixed
                    else ("all / —" if s == "slc-homo" else "— / all"))
            rows.append(f"| {w} | {NAMES[s]} | {r['sim_time_s']:.2f} | {norm(t, w, s):.2f} | {host} | "
                        f"{i(gc_runs(r, 'slc')) if s != 'mlc-homo' else '—'} | "
                        f"{i(gc_runs(r, 'mlc')) if s != 'slc-homo' else '—'} | "
                        f"{i(num(r, 'placement.migrated_sectors')) if mixed else '—'} | "
                        f"{i(num(r, 'placement.slc_kept_sectors')) if mixed else '—'} | "
                        f"{num(r, 'ops.read.latency_us.mean'):,.0f} | {write_mean(r):,.0f} | "
                        f"{100 * (1 - read_share(r)):.0f}% | "
                        f"{'—' if slc_util is None else f'{100 * slc_util:.0f}%'} / {100 * other:.0f}% |")
    return rows


def sweep_rows(s):
    rows = ["| workload | scheme | " + " | ".join(f"{b} SLC blocks" for b in PAPER_SLC_BLOCKS) +
            " | host sectors to SLC | SLC GC runs | MLC GC runs | migrated |",
            "|---|---|" + "---|" * len(PAPER_SLC_BLOCKS) + "---|---|---|---|"]
    for w in SWEEP_WORKLOADS:
        for x in SWEEP_SCHEMES:
            blocks = sweep_blocks(x)
            cells = [f"{sweep_norm(s, w, x, b):.2f}" if b in blocks else "refused" for b in PAPER_SLC_BLOCKS]
            runs = [s[f"{w}/{x}-{b}"] for b in blocks]
            fig = lambda key: " / ".join(i(num(r, f"placement.{key}")) for r in runs)  # noqa: E731
            rows.append(f"| {w} | {NAMES[x]} | " + " | ".join(cells) +
                        f" | {fig('host_slc_sectors')} | {fig('slc_gc_runs')} | {fig('mlc_gc_runs')} | "
                        f"{fig('migrated_sectors')} |")
    return rows


def tie_rows(results):
    t, o = by_part(results, "total"), by_part(results, "tie-order")
    rows = ["| workload | oldest-first (the default) | " + TIE_ORDER + " | host sectors to SLC (oldest / recent) |",
            "|---|---|---|---|"]
    for w in WORKLOADS:
        a, b = t[f"{w}/lapt"], o[f"{w}/lapt"]
        m = t[f"{w}/mlc-homo"]["sim_time_s"]
        rows.append(f"| {w} | {a['sim_time_s'] / m:.2f} | {b['sim_time_s'] / m:.2f} | "
                    f"{i(num(a, 'placement.host_slc_sectors'))} / {i(num(b, 'placement.host_slc_sectors'))} |")
    return rows


# ---- text ---------------------------------------------------------------------------------------

def memory_text(results):
    r = results.get("total/general/lapt")
    if not r:
        return []
    lb, mb = num(r, "placement.lapt_bytes"), num(r, "placement.map_bytes")
    logical = num(r, "ftl.logical_sectors")
    block = int(num(r, "placement.lapt_block_sectors"))
    nblocks = -(-int(logical) // block)
    what = "one SLC superblock" if r.get("config.ftl.lapt.logical_block") == "slc-superblock" else "one SLC block"
    return [f"LAPT's table: {i(lb)} B for the {nblocks:,} logical blocks ({what}, {block} sectors = "
            f"{kib(block)}, each): a signed counter, an SLC-writable flag and two list links each (10 "
            f"bytes) plus the per-value list heads and tails. The page map (logical to physical, 4 B an entry) is "
            f"{i(logical * 4)} B, so the table is {100 * lb / (logical * 4):.1f}% of it ({100 * lb / mb:.2f}% of the "
            f"{i(mb)} B of the map and the reverse map this FTL keeps for GC). The paper's 16 KB (3% of its page map) "
            f"is a list kept sorted with pointers over logical blocks of one SLC block (256 KiB)."]


def checks_text(results, scale, errors):
    by_group = {}
    for claim, fast, slow in check_figures(results, CHECKED):
        g, rest = claim.split(": ", 1)
        a, b = rest.split(" shorter than ")
        by_group.setdefault(g, []).append(f"{a} < {b} ({100 * margin(fast, slow):.0f}%)")
    rows = ["| part / workload | orderings checked (margin in this run) |", "|---|---|"]
    rows += [f"| {g} | {', '.join(v)} |" for g, v in sorted(by_group.items())]
    out = left_out(results)
    return (["`ctest -R lapt` runs the scaled configuration (parts " + ", ".join(f"`{c}`" for c in CHECKED) +
             ", half the requests, through the sweep engine on a LocalCluster of 2 workers) and "
             "`scripts/lapt_experiment.py --check`: every run present, completed, exit 0, reads checked with no "
             "mismatch and no unexplained error, no request folded, the logical capacity the preconditioning "
             "assumed; and every ordering of two runs of one part and workload "
             f"(two schemes, or two SLC block counts) that held by {TIE:.0%} or more at both the scaled and the full "
             f"size in the runs of {CHOSEN_ON} (scripts/ssdvp_sweep/experiments/lapt_checks.py, "
             f"{len(check_figures(results, CHECKED))} of them; `a < b`: a finishes first):", ""] + rows +
            ["", f"Not enforced, because they held by {TIE:.0%} at one size only: "
             + ("; ".join(f"{g}: {a} < {b}" for g, a, b in out) if out else "none") + ".", "",
             checks_verdict(errors)])


def page(results, scale, findings, errors):
    t, s, c = by_part(results, "total"), by_part(results, "slc-sweep"), by_part(results, "cache")
    e8 = by_part(results, "eight-die")
    any_run = t["exchange/mlc-homo"]
    pre = prefix(scale)
    _, tc = remap_tpcc(scale_of(scale))
    title = "the LAPT experiment" + ("" if scale == "full" else " (scaled)")
    lines = [
        f"# SLC/MLC placement: {title}", "",
        "<!-- Written by scripts/ssdvp_sweep/experiments/lapt_report.py from the runs it quotes: edit the script, "
        "not this page. -->", "",
        "The LAPT paper ([lapt](../references.md#lapt)) places a write in SLC only when its logical block ranks, by "
        "a counter of writes minus reads, below the number of SLC blocks, and compares total execution time with "
        "MLC only (MLC_homo), SLC only (SLC_homo) and ComboFTL ([comboftl](../references.md#comboftl)). ssdvp runs "
        "the same comparison with its firmware's placement policies (docs/ftl-guide.md, \"SLC/MLC placement\"), plus "
        "a plain SLC write cache (`slc-only`, not in the paper), first in the paper's setting, then with a DRAM write "
        "cache as a modern drive has. LAPT ranks logical blocks of one SLC block (256 KiB) in the order of the "
        "paper's sorted list (ties: the block that reached a counter value first ranks first), so at most as many "
        "blocks as SLC has are SLC-writable. ComboFTL is simplified: writes of at most 16 KiB go to SLC, SLC GC "
        "copies data back into SLC until it has survived 2 SLC GCs, and MLC is mapped per unit of 4 MLC "
        "superblocks (docs/ftl-guide.md); \"ComboFTL, page-mapped MLC\" is the same policy with MLC page-mapped, to "
        "show what the unit map does. ComboFTL's own adaptation of the survival count is not modelled: only its "
        "abstract is available here (docs/ftl-guide.md).", "",
        "## Setup", "",
        "**The paper's setting** (parts `total` and `slc-sweep`): its device, one SLC chip of 64 blocks beside MLC "
        "of 1,024 blocks arranged 2-way, every chip 4-plane (the paper's Table 1 timing: SLC 20/200 µs read/program, "
        "2 ms erase, 64 pages a block; MLC 60/1,350 µs, 3 ms, 128 pages), on one channel (the paper does not give "
        "the channel count); write-through (`device.volatile_write_cache = false`: the paper's simulator has no DRAM "
        "write buffer and charges a write the program time of the medium it lands on, its Figure 1; here a write "
        "completes when the pages that hold its data are programmed, only those pages); the SLC region's GC starts "
        "when its last free superblock is taken (`ftl.slc_gc_low_blocks = ftl.slc_gc_high_blocks = 1`, the "
        "platform's, for the pools whose GC only migrates to MLC; 2 for ComboFTL's, whose GC copies young data back "
        "into SLC and keeps a free superblock for that: chosen before the runs, the same rule for every scheme). "
        "Every device exports the same 384 MiB (`ftl.logical_sectors`). "
        "**With a write cache** (part `cache`): the same devices and runs with `device.volatile_write_cache = true` "
        "(a 16 MiB DRAM write buffer: a write completes once its data is in DRAM).", ""] + \
        device_rows(results) + ["", "Schemes:", ""] + scheme_rows() + [
        "",
        f"* **Replay**: closed loop at queue depth {IODEPTH} (`trace:PATH,replay=closed,iodepth={IODEPTH}`, "
        "timestamps ignored): the paper's trace-driven simulator served one request after another; the run's "
        "simulated time is the trace's total execution time.",
        "* **Preconditioning**, the same for every run: the span written once sequentially "
        "(`precondition.fill` = the span's share of the device's capacity, `precondition.overwrite = 0`), so every "
        "device holds the same data, the trace's address space, and every read finds written data. The price: the "
        "drives are not aged (below, Weak).",
        f"* **Workloads**: {', '.join(PROFILES)} from `scripts/lapt_profiles.py` (docs/traces.md, \"Synthetic "
        "profiles of the LAPT paper's traces\": the paper's request count, write fraction and mean write size, a "
        "chosen locality), generated in the span with seed 1 (no copy of the SNIA Exchange or TPC-C traces could "
        "be found to fetch here); tpcc is the real `traces/samples/tpcc-small.trace` (an excerpt, not the paper's "
        f"TPC-C), each request's 4 KiB page number modulo the span's pages, its size rounded up to 4 KiB: "
        f"{tc['wrapped']:,} of {tc['requests']:,} requests wrapped, {tc['moved_back']} moved back from the span's end, "
        f"{tc['unaligned']:,} were not 4 KiB aligned. The traces are written into the store's folder (`traces/`, a "
        "header line gives their origin); the store's key holds their content hash.", ""] + \
        workload_rows(results) + [
        "",
        "```",
        f"scripts/reproduce.py --scale {scale} --only lapt                 # runs, checks, findings, this page",
        f"scripts/lapt_experiment.py --scale {scale} --report docs/results # the same runs and page",
        f"# full: {len(expected_tags(list(PARTS)))} runs, about 1.5 minutes on 2 cores; scaled, checked parts "
        f"(ctest -R lapt): {len(expected_tags(CHECKED))} runs, about 35 s",
        "```", "",
        f"Written on {date.today().isoformat()} from the {len({r['hash'] for r in results.values()})} runs of the "
        f"store ({len(results)} tags; ssdvp build "
        f"`{any_run['build']}`); simulated figures do not depend on the machine.", "",
        f"## Total execution time, the paper's setting ({scale})", "",
        "Normalised to MLC_homo of the same workload (lower is better); MLC_homo in seconds:", ""] + norm_rows(t) + [
        "", f"![total time]({pre}-total.png)", "",
        "Where the time goes (die busy: the SLC die, and the mean of the others):", ""] + detail_rows(t) + [""]
    if s:
        lines += [f"## SLC block count, the paper's setting ({scale})", "",
                  "LAPT and ComboFTL with 16 ... 256 SLC blocks (`nand.slc.blocks_per_plane` = blocks / 4; the "
                  "logical capacity stays 384 MiB), normalised to MLC_homo of the same workload; the figures after "
                  f"the times are for {' / '.join(map(str, PAPER_SLC_BLOCKS))} blocks:", ""] + sweep_rows(s) + [
                  "", f"![SLC sweep]({pre}-slc-sweep.png)", "",
                  "Every point runs: each SLC pool has its own GC thresholds (`ftl.slc_gc_low_blocks`, "
                  "`ftl.slc_gc_high_blocks`: 1 where its GC only migrates, 2 for ComboFTL's, whose GC copies young "
                  "data back into SLC and keeps a free superblock for it), so 16 SLC blocks (4 superblocks of 4 "
                  "planes) hold the free target, the open host superblock and the one GC works on. The general "
                  "thresholds (GC below 3 free, up to 5) would refuse 16 and 32 blocks.", ""]
    if c:
        lines += [f"## Total execution time with a DRAM write cache ({scale})", "",
                  "The same devices, traces and schemes with `device.volatile_write_cache = true`, normalised to "
                  "MLC_homo with the cache:", ""] + norm_rows(c) + [""]
    lines += ["## Against the paper's findings", "",
              "Judged on the paper's setting. \"pass\": the same ordering by more than "
              f"{TIE:.0%} (closer is a tie), and the same rough size where the paper gives one (the band in the first "
              "column); \"differs\": not.", ""] + findings_rows(findings) + ["", "Why:", ""] + explanations(results) + [""]
    lines += ["## Diagnostics", ""]
    if by_part(results, "tie-order"):
        lines += [f"`tie-order`: LAPT with `ftl.lapt.tie_order = {TIE_ORDER}` (a block that reaches a counter value "
                  "ranks before the blocks already there) against the default, in the paper's setting, x MLC_homo:",
                  ""] + tie_rows(results) + [""]
    if e8:
        lines += ["`eight-die`: the previous reproduction's devices (one SLC die of 64 blocks beside seven MLC "
                  "dies; MLC_homo eight MLC dies of 4 x 32 blocks; SLC_homo eight SLC dies of 4 x 64), write cache on, "
                  "general GC thresholds:", ""] + norm_rows(e8) + [""]
    lines += ["## On a TLC drive with a pSLC cache", "",
              "The same policies run on a homogeneous TLC drive whose SLC region is made of SLC-mode blocks on its "
              "dies (`nand.pslc.blocks_per_plane`): docs/results/pslc.md has its sustained-write curve.", ""]
    lines += ["## LAPT's memory", ""] + memory_text(results) + [""]
    lines += ["## Checks in the test suite", ""] + checks_text(results, scale, errors) + [""]
    lines += ["## Weak", "",
              "* Four of the five traces are synthetic: only their request count, write fraction and mean write size "
              "come from the paper; the locality that decides LAPT's and ComboFTL's choices (how many logical blocks "
              "take most writes, overlap of reads and writes, request sizes) is invented, and the Why section shows "
              "it decides how much LAPT can put in SLC. TPC-C is a 7k-request excerpt folded onto one span (the "
              "paper's: 348,644 requests).",
              "* Unaged drives: on the short traces the drive never reaches GC's steady state (MLC_homo's MLC GC runs: "
              + ", ".join(f"{w} {i(gc_runs(t[f'{w}/mlc-homo'], 'mlc'))}" for w in WORKLOADS) +
              "); and the fill passes through placement, so LAPT's and the SLC cache's SLC die starts full of fill "
              "data while ComboFTL's starts empty (the fill's 1 MiB requests are cold by its rule).",
              "* ComboFTL is simplified (fixed 16 KiB threshold, 2 survivals without the adaptation, fixed unit size "
              "and quota, its unit map's layout not modelled); the paper's own ComboFTL differs, and so does the FTL "
              "around LAPT (superpage striping, GC thresholds, the preconditioning).",
              "* The paper's simulator is not described beyond its NAND timing: one channel, what it charged a "
              "write (inferred from its Figure 1) and whether its SLC-to-MLC migration ran while the host waited are "
              "this page's readings, not the paper's statements.",
              "* One seed per trace, one run per point: the margins are of deterministic runs, not across traces.", ""]
    return "\n".join(lines)


def write_report(results, scale, report_dir, findings):
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    pre = prefix(scale)
    written = []
    panels = [(title, by_part(results, p)) for p, title in (("total", "The paper's setting: write-through"),
                                                           ("cache", "With a DRAM write cache")) if by_part(results, p)]
    plot_total(panels, scale, report_dir / f"{pre}-total.png")
    written.append(report_dir / f"{pre}-total.png")
    s = by_part(results, "slc-sweep")
    if s:
        plot_sweep(s, scale, report_dir / f"{pre}-slc-sweep.png")
        written.append(report_dir / f"{pre}-slc-sweep.png")
    page_path = report_dir / f"{pre}.md"
    page_path.write_text(page(results, scale, findings, Lapt().checks(results)))
    return [page_path] + written
