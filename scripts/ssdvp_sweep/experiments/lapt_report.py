"""The LAPT experiment's report, written from the store rows of its runs: docs/results/lapt.md
(full scale) or lapt-scaled.md, with the plots lapt[-scaled]-total.png (total time per workload
and scheme, normalised to MLC_homo) and lapt[-scaled]-slc-sweep.png (against the SLC block
count). Every table, plot and figure in the prose is computed here from those runs (so the page
cannot drift from them); the workloads' statistics are read from the trace files the runs
replayed; per-die utilisation from each run's run.json (the store's run_dir).

Leaves out running and checking (lapt.py). Needs matplotlib (Debian's, through the venv).
"""
import json
import re
from datetime import date
from pathlib import Path

from . import checks_verdict, findings_rows
from .lapt import (CHECKED, IODEPTH, PAPER_SLC_BLOCKS, PAPER_WAYS_OP, PLANES, PROFILES, QD8, REFUSED_BLOCKS,
                   SCHEME_SETTINGS, SCHEMES, SPAN_SECTORS, SWEEP_BLOCKS, SWEEP_SCHEMES, SWEEP_WORKLOADS, TIE, WORKLOADS, Lapt,
                   _profiles, by_part, check_figures, margin, mean_norm, norm, num, refused_tags, remap_tpcc,
                   scale_of, sweep_norm, trace_of)

MIB = 1024 * 1024
SECTOR = 4096
SHOWN = [s for s in SCHEMES if s != "mlc-homo"]
NAMES = {"mlc-homo": "MLC_homo", "slc-homo": "SLC_homo", "lapt": "LAPT", "combo": "ComboFTL",
         "combo-page": "ComboFTL, page-mapped MLC", "slc-only": "SLC cache"}
PAPER_TABLE2 = {"exchange": (204_571, 0.79, 24.83), "photoshop": (23_498, 0.29, 414.21),
                "random": (33_740, 0.99, 8.28), "general": (300_000, 0.23, 27.67), "tpcc": (348_644, 0.37, 18.28)}


def prefix(scale):
    return "lapt" if scale == "full" else "lapt-scaled"


def i(v):
    return f"{int(v):,}"


def run_json(row):
    return json.loads((Path(row["run_dir"]) / "run.json").read_text())


def dies_util(row):
    """(SLC die utilisation or None, mean utilisation of the other dies) of a run."""
    dies = run_json(row)["utilisation"]["dies"]
    slc = int(num(row, "config.nand.slc_dies"))
    if slc:
        return sum(dies[:slc]) / slc, sum(dies[slc:]) / (len(dies) - slc)
    return None, sum(dies) / len(dies)


def read_share(r):
    """Share of the total time that host reads took (QD1: requests one after another)."""
    return num(r, "ops.read.requests") * num(r, "ops.read.latency_us.mean") / 1e6 / r["sim_time_s"]


def write_mean(r):
    return num(r, "ops.write.latency_us.mean")


def gc_runs(r, region):
    """SLC or MLC GC runs; a homogeneous device's GC runs count for its cell type."""
    if "placement.slc_gc_runs" in r:
        return num(r, f"placement.{region}_gc_runs")
    return num(r, "ftl.gc_runs") if str(r.get("config.nand.cell", "mlc")) == region else 0


# ---- plots --------------------------------------------------------------------------------------

def plot_total(t, scale, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4.2))
    width = 0.8 / len(SHOWN)
    for k, s in enumerate(SHOWN):
        xs = [w + (k - (len(SHOWN) - 1) / 2) * width for w in range(len(WORKLOADS) + 1)]
        ys = [norm(t, w, s) for w in WORKLOADS] + [mean_norm(t, s)]
        ax.bar(xs, ys, width, label=NAMES[s])
    ax.axhline(1.0, color="black", linewidth=0.8, label="MLC_homo")
    ax.set_yscale("log")
    ticks = [0.125, 0.25, 0.5, 1, 2, 4, 8, 16]
    low = min(min(norm(t, w, s) for w in WORKLOADS) for s in SHOWN)
    high = max(max(norm(t, w, s) for w in WORKLOADS) for s in SHOWN)
    ax.set_yticks([v for v in ticks if low / 2 <= v <= high * 2], [f"{v:g}" for v in ticks if low / 2 <= v <= high * 2])
    ax.minorticks_off()
    ax.set_xticks(range(len(WORKLOADS) + 1), WORKLOADS + ["mean"])
    ax.set_ylabel("total time / MLC_homo (log)")
    ax.set_title(f"Total execution time normalised to MLC_homo (QD{IODEPTH}, {scale})")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=3, loc="upper left")
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
            ax.plot(SWEEP_BLOCKS, [sweep_norm(s, w, x, b) for b in SWEEP_BLOCKS], marker="o", label=NAMES[x])
        ax.axhline(1.0, color="black", linewidth=0.8, label="MLC_homo")
        ax.set_xscale("log", base=2)
        ax.set_xticks(PAPER_SLC_BLOCKS, [str(b) for b in PAPER_SLC_BLOCKS])
        for b in REFUSED_BLOCKS:
            ax.axvline(b, color="grey", linestyle=":", linewidth=0.8)
        ax.set_xlabel("SLC blocks (16, 32: refused by the platform)")
        ax.set_title(w)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("total time / MLC_homo")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Total time against the SLC block count ({scale})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---- tables -------------------------------------------------------------------------------------

def device_rows(t):
    rows = ["| scheme | device (platform file) | flash | logical capacity | placement |", "|---|---|---|---|---|"]
    for s, (platform, placement) in SCHEMES.items():
        r = t[f"exchange/{s}"]
        dies = int(r["config.nand.channels"] * r["config.nand.ways"])
        slc = int(r.get("config.nand.slc_dies", 0))
        bpp = int(r["config.nand.blocks_per_plane"])
        planes = int(r["config.nand.planes"])
        if slc:
            sbpp = int(r["config.nand.slc.blocks_per_plane"]) or bpp
            flash = (f"{slc} SLC die x {planes} planes x {sbpp} blocks ({slc * planes * sbpp} SLC blocks) + "
                     f"{dies - slc} MLC dies x {planes} x {bpp} ({(dies - slc) * planes * bpp:,} MLC blocks)")
        else:
            cell = str(r["config.nand.cell"]).upper()
            flash = f"{dies} {cell} dies x {planes} planes x {bpp} blocks ({dies * planes * bpp:,} {cell} blocks)"
        logical = num(r, "ftl.logical_sectors")
        extra = "".join(f", `{k} = {v}`" for k, v in SCHEME_SETTINGS.get(s, []))
        rows.append(f"| {NAMES[s]} | `{platform}` | {flash} | {logical * SECTOR / MIB:.0f} MiB ({i(logical)} sectors) "
                    f"| `{placement}`{extra} |")
    return rows


def workload_rows(results, scale):
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
            "migrated to MLC | kept in SLC by GC | read mean (µs) | write mean (µs) | reads' share of the time | "
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
                        f"{num(r, 'ops.read.latency_us.mean'):,.0f} | {write_mean(r):,.0f} | {100 * read_share(r):.0f}% | "
                        f"{'—' if slc_util is None else f'{100 * slc_util:.0f}%'} / {100 * other:.0f}% |")
    return rows


def sweep_rows(s):
    rows = ["| workload | scheme | " + " | ".join(f"{b} SLC blocks" for b in PAPER_SLC_BLOCKS) +
            " | host sectors to SLC | SLC GC runs | MLC GC runs | migrated |",
            "|---|---|" + "---|" * len(PAPER_SLC_BLOCKS) + "---|---|---|---|"]
    for w in SWEEP_WORKLOADS:
        for x in SWEEP_SCHEMES:
            cells = [f"{sweep_norm(s, w, x, b):.2f}" if b in SWEEP_BLOCKS else "refused" for b in PAPER_SLC_BLOCKS]
            runs = [s[f"{w}/{x}-{b}"] for b in SWEEP_BLOCKS]
            fig = lambda key: " / ".join(i(num(r, f"placement.{key}")) for r in runs)  # noqa: E731
            rows.append(f"| {w} | {NAMES[x]} | " + " | ".join(cells) +
                        f" | {fig('host_slc_sectors')} | {fig('slc_gc_runs')} | {fig('mlc_gc_runs')} | "
                        f"{fig('migrated_sectors')} |")
    return rows


def refusal(results):
    r = results.get(f"slc-sweep/refused/lapt-{REFUSED_BLOCKS[0]}") if REFUSED_BLOCKS else None
    if not r:
        return ""
    line = (r.get("error") or "").strip().splitlines()[-1:] or [""]
    return re.sub(r"\s+", " ", line[0]).strip()


# ---- prose --------------------------------------------------------------------------------------

def explanations(results):
    t, s, pw = by_part(results, "total"), by_part(results, "slc-sweep"), by_part(results, "paper-ways")
    out = []
    m = {w: t[f"{w}/mlc-homo"] for w in WORKLOADS}
    shares = ", ".join(f"{w} {100 * read_share(m[w]):.0f}%" for w in WORKLOADS)
    out.append(
        f"* **Total time here is mostly read time.** Writes are acknowledged once their data is in the 16 MiB DRAM "
        f"write buffer (mean write latency on MLC_homo {min(write_mean(m[w]) for w in WORKLOADS):.0f}–"
        f"{max(write_mean(m[w]) for w in WORKLOADS):,.0f} µs, against a 1,350 µs MLC program), so at queue depth 1 "
        f"the host waits for reads: they take {shares} of MLC_homo's total time. Programs and GC show up as reads "
        f"waiting behind them on a busy die (MLC_homo's mean read on exchange {num(m['exchange'], 'ops.read.latency_us.mean'):,.0f} µs "
        f"against a 60 µs array read). The paper describes no write buffer in its trace-driven simulator; if it charged "
        f"each write its program time, as its Figure 1 does, writing a hot page to SLC (200 µs) instead of MLC (1,350 µs) "
        f"saves time directly, which it cannot do here: a scheme gains only by keeping reads off busy MLC dies or "
        f"serving them from SLC.")
    lr, mr, cr = t["random/lapt"], t["random/mlc-homo"], t["random/combo"]
    l_slc, l_mlc = dies_util(lr)
    c_slc, c_mlc = dies_util(cr)
    hs = num(lr, "placement.host_slc_sectors")
    mig = num(lr, "placement.migrated_sectors")
    out.append(
        f"* **Random: the SLC die drains slowly.** LAPT sends {i(hs)} of random's write sectors to the one SLC die and "
        f"migrates {i(mig)} ({100 * mig / hs:.0f}%): its writes spread over a test file larger than the SLC region, "
        f"so little is overwritten before FIFO GC reaches it. SLC GC migrates a victim a superpage (4 sectors) at a "
        f"time with at most two programs in flight (the GC's double buffer, gc/gc.c), about 8 sectors per 1.35 ms "
        f"MLC program, while MLC_homo's 8 MLC dies take 32 sectors per program time from the write buffer. Host "
        f"writes wait for SLC space: mean write {write_mean(lr):,.0f} µs against MLC_homo's {write_mean(mr):,.0f} µs, "
        f"with no die saturated (SLC die busy {100 * l_slc:.0f}%, MLC dies {100 * l_mlc:.0f}%; MLC_homo's dies "
        f"{100 * dies_util(mr)[1]:.0f}%). ComboFTL copies SLC victims back into SLC until they have survived "
        f"{int(num(cr, 'config.ftl.combo.slc_survivals'))} SLC GCs ({i(num(cr, 'placement.slc_kept_sectors'))} sectors kept, "
        f"{i(num(cr, 'placement.slc_gc_runs'))} SLC GC runs), all on the one SLC die (busy {100 * c_slc:.0f}%): "
        f"{norm(t, 'random', 'combo'):.1f}x MLC_homo. Random decides both averages: without it LAPT's mean is "
        f"{mean_norm(t, 'lapt', [w for w in WORKLOADS if w != 'random']):.2f} and ComboFTL's "
        f"{mean_norm(t, 'combo', [w for w in WORKLOADS if w != 'random']):.2f}"
        + (", and LAPT's lead over ComboFTL on average comes from random alone." if
           mean_norm(t, "lapt") < mean_norm(t, "combo") and
           mean_norm(t, "lapt", [w for w in WORKLOADS if w != "random"]) >=
           mean_norm(t, "combo", [w for w in WORKLOADS if w != "random"]) else "."))
    if set(f"{w}/{x}" for w in WORKLOADS for x in SCHEMES) <= set(pw):
        pshare = ", ".join(f"{w} {100 * read_share(pw[f'{w}/mlc-homo']):.0f}%" for w in WORKLOADS)
        out.append(
            f"* **The die ratio.** On this platform one SLC die (4 planes x 200 µs: 20 sectors/ms) stands next to seven "
            f"MLC dies (21 sectors/ms together): SLC adds no write bandwidth. The paper's device has MLC 2-way "
            f"(about 6 sectors/ms). The diagnostic part `paper-ways` runs the same traces on that parallelism (one "
            f"channel, two MLC dies of 4 x 128 blocks, the SLC die next to them; ftl.op {PAPER_WAYS_OP} keeps "
            f"MLC_homo's capacity): LAPT's mean falls to {mean_norm(pw, 'lapt'):.2f}x MLC_homo "
            f"(random {norm(pw, 'random', 'lapt'):.2f}, exchange {norm(pw, 'exchange', 'lapt'):.2f}), ComboFTL's to "
            f"{mean_norm(pw, 'combo'):.2f} ({mean_norm(pw, 'combo-page'):.2f} page-mapped; photoshop "
            f"{norm(pw, 'photoshop', 'combo'):.2f} against {norm(pw, 'photoshop', 'combo-page'):.2f}): closer to the paper, "
            f"still far from its 0.44 and 0.70. There too the write buffer hides programs and reads take MLC_homo's "
            f"time ({pshare}).")
    pc, pl, pp = t["photoshop/combo"], t["photoshop/lapt"], t["photoshop/combo-page"]
    gc_, gl, gp = t["general/combo"], t["general/lapt"], t["general/combo-page"]
    w_sect = num(pc, "placement.host_slc_sectors") + num(pc, "placement.host_mlc_sectors")
    quota = int(num(pc, "config.ftl.combo.unit_blocks") + num(pc, "config.ftl.combo.unit_extra_blocks"))
    out.append(
        f"* **ComboFTL's unit-mapped MLC costs it on every workload** (ComboFTL against the same policy with MLC "
        f"page-mapped, `ftl.combo.unit_blocks = 0`: "
        + ", ".join(f"{w} {norm(t, w, 'combo'):.2f} / {norm(t, w, 'combo-page'):.2f}" for w in WORKLOADS) +
        f" x MLC_homo). On general it is the paper's reason: MLC GC runs {i(num(gc_, 'placement.mlc_gc_runs'))} against "
        f"{i(num(gp, 'placement.mlc_gc_runs'))} page-mapped (LAPT {i(num(gl, 'placement.mlc_gc_runs'))}), sectors copied "
        f"{i(num(gc_, 'ftl.gc_copied_sectors'))} against {i(num(gp, 'ftl.gc_copied_sectors'))}. Only "
        f"{i(num(gc_, 'placement.unit_gc_runs'))} of those GCs were a unit cleaning itself at its quota; the rest are pools "
        f"short of free superblocks, because every unit being written (of {i(num(gc_, 'placement.units'))}) keeps a "
        f"partly written open superblock the pools cannot use, and superpages are padded where a unit's run ends "
        f"({i(num(gc_, 'ftl.padding_sectors'))} padding sectors against {i(num(gp, 'ftl.padding_sectors'))}). On photoshop it "
        f"is parallelism: a unit writes into at most {quota} superblocks at once (it opens one on a further die "
        f"only while the dies of its open ones are busy), so a large sequential write programs at most {quota} of "
        f"the seven MLC dies (MLC dies busy {100 * dies_util(pc)[1]:.0f}% against {100 * dies_util(pp)[1]:.0f}% "
        f"page-mapped), the write buffer fills and writes wait for it (mean write {write_mean(pc):,.0f} µs against "
        f"{write_mean(pp):,.0f}); {i(num(pc, 'placement.unit_gc_runs'))} unit GCs add to it. The paper's device has two "
        f"MLC dies, where the loss is smaller (below, `paper-ways`).")
    out.append(
        f"* **Photoshop: ComboFTL hardly uses SLC.** Its rule (writes of at most "
        f"{int(num(pc, 'config.ftl.combo.hot_write_kib'))} KiB are hot) sends {i(num(pc, 'placement.host_slc_sectors'))} "
        f"of the {i(w_sect)} host sectors it programs ({100 * num(pc, 'placement.host_slc_sectors') / w_sect:.1f}%) to SLC, since "
        f"photoshop's writes are large (415 sectors, 207 KiB, on average); it runs {i(num(pc, 'placement.slc_gc_runs'))} SLC GCs "
        f"against LAPT's {i(num(pl, 'placement.slc_gc_runs'))}. So it is slower than MLC_homo "
        f"({norm(t, 'photoshop', 'combo'):.2f}x), as the paper found, but through its unit-mapped MLC (page-mapped: "
        f"{norm(t, 'photoshop', 'combo-page'):.2f}x, MLC_homo on seven MLC dies instead of eight), not through the "
        f"paper's explanation (ComboFTL's SLC data GC'd over and over), which needs ComboFTL to put photoshop's data in "
        f"SLC; this ComboFTL on these synthetic writes does not.")
    tc, tl, tm = t["tpcc/combo"], t["tpcc/lapt"], t["tpcc/mlc-homo"]
    reads = num(tc, "ops.read.requests") / num(tc, "host_requests")
    out.append(
        f"* **TPC-C: ComboFTL ahead of LAPT; General: it depends on the MLC map.** TPC-C's writes are 8 KiB, hot by "
        f"ComboFTL's rule: {i(num(tc, 'placement.host_slc_sectors'))} of the "
        f"{i(num(tc, 'placement.host_slc_sectors') + num(tc, 'placement.host_mlc_sectors'))} host sectors it programs "
        f"go to SLC, so the MLC dies rarely program and reads ({100 * reads:.0f}% of the requests) do not wait behind "
        f"1.35 ms programs: mean read {num(tc, 'ops.read.latency_us.mean'):,.0f} µs against LAPT's "
        f"{num(tl, 'ops.read.latency_us.mean'):,.0f} and MLC_homo's {num(tm, 'ops.read.latency_us.mean'):,.0f}. LAPT sends "
        f"only {i(num(tl, 'placement.host_slc_sectors'))}: the remapped writes land all over the span's "
        f"{kib(num(tl, 'placement.lapt_block_sectors'))} logical blocks (the modulo scatters them), and only the "
        f"{slc_writable(tl)} blocks that rank highest go to SLC. On general ComboFTL puts "
        f"more in SLC ({i(num(gc_, 'placement.host_slc_sectors'))} sectors against LAPT's "
        f"{i(num(gl, 'placement.host_slc_sectors'))}); page-mapped that makes it "
        + ("faster" if norm(t, "general", "combo-page") < norm(t, "general", "lapt") else "no faster") +
        f" than LAPT ({norm(t, 'general', 'combo-page'):.2f} against {norm(t, 'general', 'lapt'):.2f}), unit-mapped "
        + ("slower" if norm(t, "general", "combo") > norm(t, "general", "lapt") else "still not slower") +
        f" ({norm(t, 'general', 'combo'):.2f}): the unit map decides the general finding, as the paper says.")
    if s:
        lo, hi = SWEEP_BLOCKS[0], SWEEP_BLOCKS[-1]
        a, b = s[f"photoshop/lapt-{lo}"], s[f"photoshop/lapt-{hi}"]
        ca, cb = s[f"general/combo-{lo}"], s[f"general/combo-{hi}"]
        gla, glb = s[f"general/lapt-{lo}"], s[f"general/lapt-{hi}"]
        out.append(
            f"* **SLC sweep.** LAPT's rank threshold is the SLC block count, so on photoshop more SLC takes more "
            f"of its writes ({i(num(a, 'placement.host_slc_sectors'))} → {i(num(b, 'placement.host_slc_sectors'))} "
            f"sectors, {lo} → {hi} blocks) and MLC GC falls ({i(num(a, 'placement.mlc_gc_runs'))} → "
            f"{i(num(b, 'placement.mlc_gc_runs'))}): not flat. On general the blocks it ranks first already fit in "
            f"{lo} SLC blocks ({i(num(gla, 'placement.host_slc_sectors'))} → {i(num(glb, 'placement.host_slc_sectors'))} "
            f"sectors to SLC: hardly more). ComboFTL's SLC share is fixed by request size; more SLC keeps its data longer before "
            f"migration (general: migrated {i(num(ca, 'placement.migrated_sectors'))} → "
            f"{i(num(cb, 'placement.migrated_sectors'))}, MLC GC {i(num(ca, 'placement.mlc_gc_runs'))} → "
            f"{i(num(cb, 'placement.mlc_gc_runs'))}), the paper's mechanism, but on general, where the paper saw it "
            f"stay behind LAPT; on photoshop it barely writes to SLC at any size.")
    return out


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
            f"bytes) plus the per-value list heads and tails, against {i(mb)} B for the page map and its reverse map: "
            f"{100 * lb / mb:.2f}%. The paper's 16 KB (3% of its page map) is a list kept sorted with pointers, over "
            f"logical blocks of one SLC block (256 KiB): over 512 MiB that is 2,048 entries of 8 bytes; this table "
            f"has 10 bytes an entry and covers {kib(int(logical))} of logical space."]


def kib(sectors):
    """A size in 4 KiB sectors, in KiB or MiB."""
    b = int(sectors) * SECTOR
    return f"{b // MIB:,} MiB" if b % MIB == 0 and b >= MIB else f"{b // 1024:,} KiB"


def slc_writable(r):
    """How many logical blocks LAPT lets into SLC on the run's device (SLC blocks, or superblocks)."""
    per_plane = int(num(r, "config.nand.slc.blocks_per_plane"))
    superblocks = r.get("config.ftl.lapt.logical_block") == "slc-superblock"
    return per_plane * (1 if superblocks else PLANES)


def checks_text(results, scale, errors):
    rows = ["| check | fast (s) | slow (s) | margin |", "|---|---|---|---|"]
    for claim, fast, slow in check_figures(results, CHECKED):
        rows.append(f"| {claim} | {fast:.2f} | {slow:.2f} | {100 * margin(fast, slow):.1f}% |")
    return (["`ctest -R lapt` runs the scaled configuration (parts " + ", ".join(f"`{c}`" for c in CHECKED) +
             ", half the requests, through the sweep engine on a LocalCluster of 2 workers) and "
             "`scripts/lapt_experiment.py --check`: every run present, completed, exit 0, reads checked with no "
             "mismatch and no unexplained error, no request folded, the logical capacity the preconditioning assumed; "
             f"{' and '.join(str(b) for b in REFUSED_BLOCKS)} SLC blocks refused with a configuration error naming "
             "`nand.slc.blocks_per_plane`; and these orderings of the paper (or of its premises: SLC is faster; "
             "sending every write to SLC costs migration; ComboFTL gains from more SLC), kept because they hold by 5% "
             f"or more at the scaled and the full size (margins of this {scale} run):", ""] + rows +
            ["", "Left out: the paper's orderings that do not hold by 5% at both sizes (LAPT against MLC_homo on "
             "photoshop and general; ComboFTL against MLC_homo on photoshop; LAPT against ComboFTL on exchange and "
             "photoshop, and on random, where ComboFTL is ahead at a quarter of the requests); and orderings against "
             "the paper (ComboFTL ahead of LAPT on tpcc, LAPT behind MLC_homo on random), which the page "
             "reports and explains but the suite does not enforce.", "",
             checks_verdict(errors)])


def page(results, scale, findings, errors):
    t, s = by_part(results, "total"), by_part(results, "slc-sweep")
    pw, q8 = by_part(results, "paper-ways"), by_part(results, "qd8")
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
        "MLC only (MLC_homo), SLC only (SLC_homo) and ComboFTL ([comboftl](../references.md#comboftl)). ssdvp runs the same comparison with its firmware's "
        "placement policies (docs/ftl-guide.md, \"SLC/MLC placement\"), plus a plain SLC write cache "
        "(`slc-only`, not in the paper). ComboFTL is simplified: writes of at most 16 KiB go to SLC, SLC GC copies "
        "data back into SLC until it has survived 2 SLC GCs, and MLC is mapped per unit of 4 MLC superblocks (a "
        "unit owns at most 6, writes into one, or more on further dies while its dies are busy, and cleans itself "
        "at that quota: docs/ftl-guide.md); "
        "\"ComboFTL, page-mapped MLC\" is the same policy with MLC page-mapped, to show what the unit map does.", "",
        "## Setup", ""] + device_rows(t) + [
        "",
        "SLC_homo is MLC_homo with the flash switched to SLC (200/20 µs, 2 ms erase, 64 pages a block): the same "
        "physical capacity in twice the blocks. The platform keeps a fixed number of superblocks per die for GC, so "
        "the exported capacities differ (the table); no run depends on it: every trace lies in the smallest, "
        f"MLC_homo's {SPAN_SECTORS * 512 // MIB} MiB ({SPAN_SECTORS:,} sectors of 512 B), and no request is folded.", "",
        f"* **Replay**: closed loop at queue depth {IODEPTH} (`trace:PATH,replay=closed,iodepth={IODEPTH}`, "
        "timestamps ignored): the paper's trace-driven simulator served one request after another; the run's "
        "simulated time is the trace's total execution time.",
        "* **Preconditioning**, the same for every run: the span written once sequentially "
        "(`precondition.fill` = the span's share of the device's capacity, `precondition.overwrite = 0`), so every "
        "device holds the same data, the trace's address space, and every read finds written data. The default "
        "(fill and age each device's whole capacity) stores more data on larger devices: SLC_homo and the mixed "
        "device with more SLC blocks would hold more than MLC_homo, and the SLC sweep would measure that (a "
        "development run with it made LAPT on general 2.4x MLC_homo at 256 SLC blocks, from extra MLC GC). The "
        "price: the drives are not aged (below, Weak).",
        f"* **Workloads**: {', '.join(PROFILES)} from `scripts/lapt_profiles.py` (docs/traces.md, \"Synthetic "
        "profiles of the LAPT paper's traces\": the paper's request count, write fraction and mean write size, a "
        "chosen locality), generated in the span with seed 1; tpcc is the real `traces/samples/tpcc-small.trace` "
        f"(an excerpt, not the paper's TPC-C), each request's 4 KiB page number modulo the span's pages, its size "
        f"rounded up to 4 KiB: {tc['wrapped']:,} of {tc['requests']:,} requests wrapped, {tc['moved_back']} moved back "
        f"from the span's end, {tc['unaligned']:,} were not 4 KiB aligned. The traces are written into the store's "
        "folder (`traces/`, a header line gives their origin); the store's key holds their content hash.", ""] + \
        workload_rows(results, scale) + [
        "",
        "```",
        f"scripts/reproduce.py --scale {scale} --only lapt                 # runs, checks, findings, this page",
        f"scripts/lapt_experiment.py --scale {scale} --report docs/results # the same runs and page",
        "# full: 102 runs, about 5 minutes on 2 cores; scaled, checked parts (ctest -R lapt): about 40 s",
        "```", "",
        f"Written on {date.today().isoformat()} from the {len({r['hash'] for r in results.values()})} runs of the "
        f"store ({len(refused_tags())} of them the refused SLC sizes; {len(results)} tags: the sweep's 64-block points "
        f"are the total part's runs; ssdvp build "
        f"`{any_run['build']}`); simulated figures do not depend on the machine.", "",
        f"## Total execution time ({scale})", "",
        "Normalised to MLC_homo of the same workload (lower is better); MLC_homo in seconds:", ""] + norm_rows(t) + [
        "", f"![total time]({pre}-total.png)", "",
        "Where the time goes (die busy: the SLC die, and the mean of the others):", ""] + detail_rows(t) + [""]
    if s:
        lines += [f"## SLC block count ({scale})", "",
                  "LAPT and ComboFTL with 64, 128 and 256 SLC blocks (`nand.slc.blocks_per_plane` = blocks / 4), "
                  "normalised to MLC_homo of the same workload; the figures after the times are for 64 / 128 / 256 "
                  "blocks:", ""] + sweep_rows(s) + [
                  "", f"![SLC sweep]({pre}-slc-sweep.png)", "",
                  f"**{' and '.join(str(b) for b in REFUSED_BLOCKS)} SLC blocks are missing** because the platform "
                  f"cannot build them: with 4-plane superblocks they are {', '.join(str(b // PLANES) for b in REFUSED_BLOCKS)} "
                  "blocks per plane, and an SLC die needs more than `ftl.gc_high_blocks` + 4 = 9 superblocks (GC's "
                  "free target plus the open host, GC, migration and spare superblocks). The runs asked for them and "
                  f"ssdvp answered (exit 2): `{refusal(results)}`. Lowering the GC thresholds for these points only "
                  "would change the FTL under comparison, so they are left out.", ""]
    if pw or q8:
        lines += ["## Diagnostics", ""]
        if pw:
            lines += [f"`paper-ways`: the same traces on the paper's parallelism (one channel; MLC_homo two MLC dies "
                      f"of 4 x 128 blocks; the mixed device one SLC die of 64 blocks and those two MLC dies; "
                      f"SLC_homo two SLC dies of 4 x 256 blocks; ftl.op {PAPER_WAYS_OP}, so MLC_homo's capacity is the "
                      f"main part's):", ""] + norm_rows(pw) + [""]
        if q8:
            lines += [f"`qd8`: the main devices at queue depth {QD8}:", ""] + norm_rows(q8) + [""]
    lines += ["## On a TLC drive with a pSLC cache", "",
              "The same policies run on a homogeneous TLC drive whose SLC region is made of SLC-mode blocks on its "
              "dies (`nand.pslc.blocks_per_plane`): docs/results/pslc.md has its sustained-write curve (a plain SLC "
              "cache falling off when full, LAPT sending the stream to TLC once its blocks outnumber the cache's, "
              "ComboFTL's 128 KiB writes bypassing the cache).", ""]
    lines += ["## LAPT's memory", ""] + memory_text(results) + [""]
    lines += ["## Against the paper's findings", "",
              f"\"pass\": the same ordering by more than {TIE:.0%} (closer is a tie), and the same rough size where the "
              "paper gives one (the band in the first column); \"differs\": not.", ""] + findings_rows(findings) + \
             ["", "Why:", ""] + explanations(results) + [""]
    lines += ["## Checks in the test suite", ""] + checks_text(results, scale, errors) + [""]
    lines += ["## Weak", "",
              "* Four of the five traces are synthetic: only their request count, write fraction and mean write size "
              "come from the paper; the locality that decides LAPT's and ComboFTL's choices (hot sets, overlap of "
              "reads and writes, request sizes) is invented. TPC-C is a 7k-request excerpt with 37% writes by "
              "request, folded from 16 devices onto one span (the paper's: 348,644 requests).",
              "* Unaged drives: on the short traces the drive never reaches GC's steady state (MLC_homo's GC runs: "
              f"random {i(gc_runs(t['random/mlc-homo'], 'mlc'))}, tpcc {i(gc_runs(t['tpcc/mlc-homo'], 'mlc'))}); and the "
              "fill passes through placement, so LAPT's and the SLC cache's SLC die starts full of fill data (on a "
              "fresh table the first N logical blocks in index order are SLC-writable) while ComboFTL's starts empty (the fill's 1 MiB requests are cold by its "
              "rule), which favours ComboFTL on short traces.",
              "* ComboFTL is simplified (fixed 16 KiB threshold, 2 survivals, fixed unit size and quota, its unit map's "
              "layout not modelled, a unit spreading over at most its quota of dies); the paper's own ComboFTL differs, "
              "and so does the FTL around LAPT (write buffer, superpage striping, GC thresholds). How much of "
              "ComboFTL's photoshop time is lost parallelism depends on that last choice: more open superblocks per "
              "unit would trap more free space.",
              "* The device is not the paper's: one SLC die beside seven MLC dies (the `paper-ways` diagnostic "
              "changes channels, dies and over-provisioning together); the paper's simulator is not described beyond "
              "its NAND timing, so what it charged a write is inferred.",
              "* One seed per trace, one run per point: the margins are of deterministic runs, not across traces.", ""]
    return "\n".join(lines)


def write_report(results, scale, report_dir, findings):
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    pre = prefix(scale)
    written = []
    t = by_part(results, "total")
    plot_total(t, scale, report_dir / f"{pre}-total.png")
    written.append(report_dir / f"{pre}-total.png")
    s = by_part(results, "slc-sweep")
    if s:
        plot_sweep(s, scale, report_dir / f"{pre}-slc-sweep.png")
        written.append(report_dir / f"{pre}-slc-sweep.png")
    page_path = report_dir / f"{pre}.md"
    page_path.write_text(page(results, scale, findings, Lapt().checks(results)))
    return [page_path] + written
