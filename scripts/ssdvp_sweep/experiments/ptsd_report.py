"""The PTSD experiment's report, written from the store rows of its runs: docs/results/ptsd.md
(full scale) or ptsd-scaled.md, every table every plot and every figure in the prose computed
here from those runs (so the page cannot drift from them), plus ptsd-tables-SCALE.md (all
columns) and the plots (read-latency CDF, CDF from p80, distribution, throughput) per part.
Latency histograms come from each run's latency_read.csv, found through the store's run_dir.

Leaves out running and checking (ptsd.py). Needs matplotlib (Debian's, through the venv).
"""
from datetime import date
from pathlib import Path

from . import checks_verdict
from .ptsd import (CHECKED, PARTS, SCALE, SCHEMES, by_part, lat, read_wait, throughput)

GIB = 1024 ** 3


def prefix(scale):
    return "ptsd" if scale == "full" else "ptsd-scaled"


def millions(n):
    return f"{n / 1e6:.2f} M" if n < 1e6 else f"{n / 1e6:.1f} M"


def pct(r, key):
    n = r["ops.read.requests"]
    return f"{100.0 * read_wait(r, key) / n:.1f}%" if n else "-"


def cdf_points(row):
    xs, ys = [], []
    for line in (Path(row["run_dir"]) / "latency_read.csv").read_text().splitlines()[1:]:
        low, high, count, cum = line.split(",")
        xs.append(int(high) / 1000.0)
        ys.append(float(cum))
    return xs, ys


def plots(runs, part, scale, report_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def axes(ax, title):
        ax.set_xscale("log")
        ax.set_xlabel("read latency (us)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()

    tag = f"{prefix(scale)}-{part}"
    names = [s for s in PARTS[part] if s in runs]
    written = []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for s in names:
        ax.plot(*cdf_points(runs[s]), label=s)
    ax.set_ylabel("CDF")
    axes(ax, f"Read latency CDF ({part}, {scale})")
    fig.tight_layout()
    fig.savefig(report_dir / f"{tag}-read-cdf.png", dpi=110)
    ax.set_ylim(0.8, 1.001)
    ax.set_title(f"Read latency CDF from p80 ({part}, {scale})")
    fig.savefig(report_dir / f"{tag}-read-cdf-p80.png", dpi=110)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for s in names:
        xs, ys = cdf_points(runs[s])
        ax.plot(xs, [ys[0]] + [b - a for a, b in zip(ys, ys[1:])], label=s, drawstyle="steps-mid")
    ax.set_ylabel("fraction of reads per bucket")
    axes(ax, f"Read latency distribution ({part}, {scale})")
    fig.tight_layout()
    fig.savefig(report_dir / f"{tag}-read-distribution.png", dpi=110)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(names, [throughput(runs[s]) for s in names])
    ax.set_ylabel("host requests / s (simulated)")
    ax.set_title(f"Total throughput ({part}, {scale})")
    fig.tight_layout()
    fig.savefig(report_dir / f"{tag}-throughput.png", dpi=110)
    plt.close(fig)
    for suffix in ("read-cdf", "read-cdf-p80", "read-distribution", "throughput"):
        written.append(report_dir / f"{tag}-{suffix}.png")
    return written


def plot_links(scale, part):
    tag = f"{prefix(scale)}-{part}"
    return [f"![read CDF]({tag}-read-cdf.png) ![read CDF from p80]({tag}-read-cdf-p80.png)", "",
            f"![read distribution]({tag}-read-distribution.png) ![throughput]({tag}-throughput.png)", ""]


def full_table(runs, part, scale):
    """Every column: ptsd-tables-SCALE.md."""
    ref = "dftl" if "dftl" in runs else "writeopt"
    lines = [f"### Experiment `{part}` ({scale})", "",
             f"| scheme | sched | throughput (req/s) | vs {ref} | read p50 us | p99 | p99.9 | max | "
             "reads waited: map read | map write | GC | TP reads | TP writes | WAF | cache DRAM (B) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in PARTS[part]:
        r = runs[s]
        dram = int(r.get("mapping.dram_bytes.cmt", 0) or 0) + int(r.get("mapping.dram_bytes.dirty_entries", 0) or 0)
        lines.append(f"| {s} | {r.get('mapping.sched', 'bypass')} | {throughput(r):,.0f} | "
                     f"{throughput(r) / throughput(runs[ref]):.2f}x | {lat(r, 'p50'):,.0f} | {lat(r, 'p99'):,.0f} | "
                     f"{lat(r, 'p99.9'):,.0f} | {lat(r, 'max'):,.0f} | {pct(r, 'map_read')} | {pct(r, 'map_write')} | "
                     f"{pct(r, 'gc')} | {int(r.get('mapping.tp_reads', 0)):,} | {int(r.get('mapping.tp_writes', 0)):,} | "
                     f"{r['waf']:.2f} | {dram:,} |")
    return lines + [""] + plot_links(scale, part)


def scheme_table(runs):
    """The page's table for paper / mixed."""
    lines = ["| scheme | sched | throughput (req/s) | vs dftl | read p50 µs | p99 | p99.9 | max | reads that waited "
             "for: a map read | a map write | TP reads | TP writes | WAF |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in SCHEMES:
        r = runs[s]
        tp = lambda k: millions(int(r.get(f"mapping.{k}", 0))) if r.get(f"mapping.{k}", 0) else "0"  # noqa: E731
        mw = "0" if s not in ("opt", "dftl") and read_wait(r, "map_write") == 0 else pct(r, "map_write")
        lines.append(f"| {s} | {r.get('mapping.sched', 'bypass')} | {throughput(r):,.0f} | "
                     f"{throughput(r) / throughput(runs['dftl']):.2f}x | {lat(r, 'p50'):,.0f} | {lat(r, 'p99'):,.0f} | "
                     f"{lat(r, 'p99.9'):,.0f} | {lat(r, 'max'):,.0f} | {pct(r, 'map_read')} | {mw} | {tp('tp_reads')} | "
                     f"{tp('tp_writes')} | {r['waf']:.2f} |")
    return lines


def adapt_table(results):
    lines = ["| mix | scheme | throughput (req/s) | read p50 µs | p99 | p99.9 | TP reads | TP writes | "
             "clean pages at the end | controller steps |", "|---|---|---|---|---|---|---|---|---|---|"]
    for part, mix in (("adapt-read", "90/10"), ("adapt-write", "10/90")):
        runs = by_part(results, part)
        w = throughput(runs["writeopt"])
        for s, name in (("writeopt", "writeopt (50:50)"), ("adaptive", "adaptive split")):
            r = runs[s]
            t = f"{throughput(r):,.0f}" if s == "writeopt" else f"**{throughput(r):,.0f}** ({100 * (throughput(r) / w - 1):+.1f}%)"
            steps = f"{int(r.get('mapping.adapt_steps', 0)):,}" if s == "adaptive" else "—"
            lines.append(f"| {mix} | {name} | {t} | {lat(r, 'p50'):,.0f} | {lat(r, 'p99'):,.0f} | {lat(r, 'p99.9'):,.0f} | "
                         f"{millions(int(r['mapping.tp_reads']))} | {millions(int(r['mapping.tp_writes']))} | "
                         f"{int(r['mapping.cmt_clean_slots']):,} | {steps} |")
    return lines


def findings_section(findings):
    lines = ["| the paper | here | verdict |", "|---|---|---|"]
    lines += [f"| {f.paper} | {f.here} | **{f.verdict}** |" for f in findings]
    return lines


def explanations(results):
    """Why the differences: each sentence quotes the runs' own figures."""
    p, m = by_part(results, "paper"), by_part(results, "mixed")
    out = []
    if set(SCHEMES) <= set(p):
        ps, wo = p["part-sched"], p["writeopt"]
        ps_ratio = throughput(wo) / throughput(ps)
        per_batch = wo["mapping.batch_entries"] / wo["mapping.batch_updates"] if wo.get("mapping.batch_updates") else 0
        out.append(f"* **Throughput of WRITEOPT and PTSD against DFTL.** Every random update of PART-SCHED costs "
                   f"a translation-page read and, soon, a write ({millions(int(ps['mapping.tp_reads']))} TP reads, "
                   f"{millions(int(ps['mapping.tp_writes']))} TP writes in `paper`); WRITEOPT carries "
                   f"{per_batch:.0f} entries per batch update and reads a translation page only on a miss "
                   f"({millions(int(wo['mapping.tp_reads']))} / {millions(int(wo['mapping.tp_writes']))}). "
                   f"Translation traffic, not GC, dominates on this board: WAF {p['dftl']['waf']:.2f}–"
                   f"{max(p[s]['waf'] for s in ('part', 'part-sched')):.2f} for the page-cached schemes against "
                   f"{p['opt']['waf']:.2f} for OPT"
                   + (", so the gain is far above the paper's." if ps_ratio > 1.3 else "."))
        out.append(f"* **PART against DFTL.** No PART read ever waits for a translation write (checked on every "
                   f"request); {pct(p['dftl'], 'map_write')} of DFTL's reads do in `paper`"
                   + (f", {pct(m['dftl'], 'map_write')} in `mixed`" if set(SCHEMES) <= set(m) else "")
                   + f". With half the cache for clean pages PART misses more ({pct(p['part'], 'map_read')} of reads "
                   f"need a map read, DFTL {pct(p['dftl'], 'map_read')}), so its reads queue behind more map traffic. "
                   f"In `paper`, after the writes stop, DFTL's dirty pages are written back within the first reads; "
                   f"from then on it is a clean cache twice PART's size (read p50 {lat(p['part'], 'p50'):,.0f} µs "
                   f"against DFTL's {lat(p['dftl'], 'p50'):,.0f} µs).")
        out.append(f"* **The price of write-stop.** PART-SCHED holds the flush while reads wait: its slowest write "
                   f"took {p['part-sched']['ops.write.latency_us.max'] / 1e6:.2f} s in `paper` (OPT's "
                   f"{p['opt']['ops.write.latency_us.max'] / 1e3:.1f} ms), the limitation the paper states.")
    return out


def adaptive_section(results):
    ar, aw = by_part(results, "adapt-read"), by_part(results, "adapt-write")
    if not ({"writeopt", "adaptive"} <= set(ar) and {"writeopt", "adaptive"} <= set(aw)):
        return []

    def change(runs, key):
        return 100 * (runs["adaptive"][f"mapping.{key}"] / runs["writeopt"][f"mapping.{key}"] - 1)

    slots = int(ar["adaptive"]["mapping.dram_bytes.budget"]) // 4096     # the cache budget in translation pages
    g = lambda runs: 100 * (throughput(runs["adaptive"]) / throughput(runs["writeopt"]) - 1)  # noqa: E731
    return [f"The controller (docs/ftl-guide.md, \"The adaptive split\") moves the clean share toward where "
            f"misses cost more: to {int(ar['adaptive']['mapping.cmt_clean_slots']):,} of {slots:,} pages on the "
            f"read-heavy mix ({int(ar['adaptive']['mapping.adapt_steps']):,} steps over the run), to "
            f"{int(aw['adaptive']['mapping.cmt_clean_slots']):,} on the write-heavy one, where the dirty entries "
            f"get the room. With the same scheduler its throughput against the fixed 50:50 is {g(ar):+.1f}% "
            f"(90/10) and {g(aw):+.1f}% (10/90); translation reads {change(ar, 'tp_reads'):+.0f}% / "
            f"{change(aw, 'tp_reads'):+.0f}%, translation writes {change(ar, 'tp_writes'):+.0f}% / "
            f"{change(aw, 'tp_writes'):+.0f}%. Read latency on the read-heavy mix: p50 "
            f"{lat(ar['adaptive'], 'p50') / 1e3:.2f} ms against {lat(ar['writeopt'], 'p50') / 1e3:.2f} ms, p99.9 "
            f"{lat(ar['adaptive'], 'p99.9') / 1e3:.1f} against {lat(ar['writeopt'], 'p99.9') / 1e3:.1f} ms"
            + (": writeopt's reads there likely profit from write-stop holding writes back for long stretches, which "
               "the faster-draining adaptive run does less." if lat(ar["adaptive"], "p50") > lat(ar["writeopt"], "p50")
               else ".")
            + " The test suite checks the throughput claim on the scaled run."] + whole_scheme(results)


def whole_scheme(results):
    """The adaptive scheme with its own scheduler, against the other demand-based schemes."""
    out = []
    for part in ("paper", "mixed"):
        runs = by_part(results, part)
        if set(SCHEMES) <= set(runs):
            demand = {s: throughput(runs[s]) for s in SCHEMES if s != "opt"}
            best = max(demand, key=demand.get)
            out.append(f"`{part}`: {demand['adaptive'] / demand['dftl']:.2f}x DFTL, "
                       + ("the best of the demand-based schemes" if best == "adaptive"
                          else f"below {best} ({demand[best] / demand['dftl']:.2f}x)"))
    if not out:
        return []
    return ["", "The `adaptive` scheme as a whole (its own scheduler, which keeps taking writes): " + "; ".join(out) + "."]


def page(results, scale, findings, checks):
    blocks, writes, after = SCALE[scale]
    logical = blocks * 8 * 4 * 128 * 4096 / 1.2 / GIB
    p = by_part(results, "paper")
    any_run = next(iter(results.values()))
    budget = p["dftl"]["mapping.dram_bytes.budget"] if "dftl" in p else 0
    title = "the PTSD experiment" + ("" if scale == "full" else " (scaled)")
    lines = [f"# Demand-based mapping: {title}", "",
             "<!-- Written by scripts/ssdvp_sweep/experiments/ptsd_report.py from the runs it quotes: edit the "
             "script, not this page. -->", "",
             "The PTSD paper ([ptsd](../references.md#ptsd)) compares a page FTL with the whole map in DRAM (OPT), "
             "DFTL, and its three steps: the partitioned cache (PART), read-priority scheduling (PART-SCHED) and the "
             "entry-level dirty cache with greedy batch update (WRITEOPT). ssdvp runs the same comparison on its own "
             "platform, plus `adaptive` (the paper's future work: a controlled clean/dirty split and a scheduler that "
             "keeps taking writes). How the schemes work: docs/ftl-guide.md, \"Mapping schemes\".", "",
             f"**Setup** (`platforms/ptsd-board.toml`, the paper's board): 8 channels x 4 ways of SLC dies, 4 KiB "
             f"pages, flash read 120 µs, program 480 µs, erase 3 ms; {logical:.0f} GiB logical, 20% over-provisioning; "
             f"the mapping cache 20% of the whole map ({budget / 2 ** 20:.1f} MiB); queue depth 128; an empty drive. "
             "Workloads:", "",
             f"* `paper`: {writes * 4096 / GIB:.0f} GiB of 4 KiB random writes (twice the logical space), then "
             f"{after:,} 4 KiB random reads: the paper's experiment;",
             f"* `mixed`: the same writes, then {after:,} requests of a 50/50 random read/write mix: reads measured "
             "while the write buffer flushes (the situation the paper's scheduler is about);",
             "* `adapt-read`, `adapt-write`: the same writes, then a 90/10 or 10/90 read/write mix, with writeopt's "
             "fixed 50:50 split against the adaptive split under the same scheduler "
             "(`ftl.mapping=adaptive ftl.sched=write-stop`): the controller alone.", "",
             "Throughput is host requests over the simulated time of the whole run; read latencies are those of the "
             "read or mixed phase. Commands:", "", "```",
             f"scripts/reproduce.py --scale {scale} --only ptsd      # runs, checks, findings, this page",
             f"scripts/ptsd_experiment.py --scale {scale} --report docs/results   # the same runs and page",
             "```", "",
             f"Written on {date.today().isoformat()} from the {len(results)} runs of the store (ssdvp build "
             f"`{any_run['build']}`); simulated figures do not depend on the machine. Every table: "
             f"[ptsd-tables-{scale}.md](ptsd-tables-{scale}.md).", "",
             f"## Results ({scale})", ""]
    for part, caption in (("paper", "random writes, then random reads"), ("mixed", "random writes, then a 50/50 mix")):
        runs = by_part(results, part)
        if set(SCHEMES) <= set(runs):
            lines += [f"`{part}`: {caption}", ""] + scheme_table(runs) + [""] + plot_links(scale, part)
    if all({"writeopt", "adaptive"} <= set(by_part(results, x)) for x in ("adapt-read", "adapt-write")):
        lines += ["`adapt-read` / `adapt-write`: random writes, then a 90/10 / 10/90 read/write mix; the fixed 50:50 "
                  "split against the adaptive one, both with the write-stop scheduler", ""] + adapt_table(results)
        lines += ["", f"Plots: `{prefix(scale)}-adapt-read-*.png`, `{prefix(scale)}-adapt-write-*.png`.", ""]
    lines += ["## Against the paper's findings", "",
              "\"pass\": the same ordering, and the same rough size where the paper gives one (the band in the first "
              "column); \"differs\": not.", ""] + findings_section(findings) + [""] + explanations(results) + [""]
    adaptive = adaptive_section(results)
    if adaptive:
        lines += ["## Adaptive split against the fixed 50:50", ""] + adaptive + [""]
    lines += ["## Checks in the test suite", "",
              "`ctest -R ptsd` runs the scaled configuration (parts " + ", ".join(f"`{c}`" for c in CHECKED) +
              ", through the sweep engine on a LocalCluster of 2 workers) and `scripts/ptsd_experiment.py --check`: "
              "every run of those parts present and a measurement (completed, exit 0, no integrity mismatch; a "
              "missing or failed run is named); from `part` on, no host read waited for a translation page write "
              "(each read's completion flags, so every request is checked) while DFTL has such reads; p99.9 read "
              "latency of part-sched below dftl's; writeopt throughput above part-sched's; opt the best throughput; "
              "the adaptive split above the fixed 50:50 on the 90/10 and 10/90 mixes. "
              "`testbenches/model/test_demand_mapping.cpp` runs every scheme with trims and 16 KiB reads on an aged "
              "drive (every read verified), cleans translation blocks, runs part-sched on the ISS, and checks the "
              "cache stays in its budget.", "",
              checks_verdict(checks), "",
              "## What is weak", "",
              "* The \"waited for GC\" figure (run.json, and the GC column of the tables file) counts reads sent to a "
              "die with GC reads, programs or an erase queued: the read shared the die with GC work, not necessarily "
              "waited long for it.",
              "* QD 128 against small caches: in the scaled run (a quarter of the cache) concurrent misses evict each "
              "other's pages; the full-size cache is far less affected.",
              "* The reverse map stays in DRAM for GC (not counted in the cache budget); no power-loss recovery of "
              "the GTD.", ""]
    return "\n".join(lines)


def write_report(results, scale, report_dir, findings):
    from .ptsd import Ptsd
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    written, tables = [], []
    for part in PARTS:
        runs = by_part(results, part)
        if runs and set(PARTS[part]) <= set(runs):
            tables += full_table(runs, part, scale)
            written += plots(runs, part, scale, report_dir)
    tables_path = report_dir / f"ptsd-tables-{scale}.md"
    tables_path.write_text("\n".join(tables) + "\n")
    page_path = report_dir / f"{prefix(scale)}.md"
    page_path.write_text(page(results, scale, findings, Ptsd().checks(results)))
    return [page_path, tables_path] + written
