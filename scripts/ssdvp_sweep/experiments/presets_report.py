"""The presets experiment's report, written from the store rows of its runs:
docs/results/presets-measured.md (full scale) or presets-measured-scaled.md, with the plot
presets-sustained[-scaled].png (write MB/s against GB written on an empty drive, one line per
drive with a cache). Every figure is computed here from the runs' run.json and throughput.csv,
so the page cannot drift from them; docs/results/presets.md discusses them by hand.

Leaves out running and checking (presets.py). Needs matplotlib (Debian's, through the venv).
"""
from datetime import date
from pathlib import Path

from . import checks_rows, checks_verdict, failed_claims, num
from .presets import (CACHE, INTERVAL_MS, PRESETS, REVIEWED_CACHE, claims_of, datasheet_rows, state_of,
                      steady_spread, steady_write, sustained_figures, workload)


def prefix(scale):
    return "presets-measured" if scale == "full" else "presets-measured-scaled"


def plot(results, scale, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for p in present(results):
        if p not in CACHE:
            continue
        pts = sustained_figures(results[f"{p}/sustained"])["points"]
        ax.plot([g for g, _ in pts], [r for _, r in pts], label=p)
    ax.set_xlabel("GB written (sequential, 128 KiB, QD32, empty drive)")
    ax.set_ylabel("write MB/s (per 50 ms)")
    ax.set_ylim(bottom=0)
    ax.set_title(f"Sustained sequential write ({scale})")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def present(results):
    """The presets whose runs are in results (the report of a run of some presets covers them)."""
    return [p for p in PRESETS if f"{p}/seqread" in results]


def fmt(v, unit):
    return f"{v:,.1f}" if unit == "us" else f"{v:,.0f}"


def write_report(results, scale, report_dir, findings):
    out = Path(report_dir)
    out.mkdir(parents=True, exist_ok=True)
    png = out / f"{prefix(scale)}-sustained.png"
    plot(results, scale, png)
    lines = [f"# Presets: datasheet against simulation ({scale})", "",
             f"Written by `scripts/presets_experiment.py --scale {scale} --report {report_dir}` on "
             f"{date.today().isoformat()} from the runs of the sweep engine's store; discussed in "
             "[presets.md](presets.md). Native firmware, one run each. Drive states: fob (empty), "
             "filled (written once sequentially), steady (filled, then overwritten once at random).", ""]
    for p in present(results):
        lines += [f"## {p}", "", "| figure | workload | state | datasheet | simulated | error |", "|---|---|---|---|---|---|"]
        for fig, value, unit, state, sim, err, fitted in datasheet_rows(p, results):
            note = " (fitted: not a check)" if fitted else ""
            bold = "**" if abs(err) > 10 else ""
            lines.append(f"| {fig} | `{workload(p, fig, scale)}` | {state} | {fmt(value, unit)} {unit} | "
                         f"{fmt(sim, unit)} {unit} | {bold}{err:+.1f} %{bold}{note} |")
        if p in CACHE:
            s = sustained_figures(results[f"{p}/sustained"])
            gb, after, source = REVIEWED_CACHE[p]
            knee = f"{s['knee']:.1f}" if s["knee"] is not None else "never"
            lines += ["", f"Sustained write (`{workload(p, 'sustained', scale)}`, {state_of(p, 'sustained')}): "
                      f"{s['burst']:,.0f} MB/s in the cache, falls off at {knee} GB (the modelled cache holds "
                      f"{s['cache_gb']:.2f} GB), then {s['after']:,.0f} MB/s (native program bandwidth "
                      f"{s['native_prog']:,.0f} MB/s). Reviews: {gb} GB, then {after:,} MB/s ({source})."]
        spread = steady_spread(results[f"{p}/randwrite"]) if steady_write(p, "randwrite") else None
        if spread:
            pacing = str(results[f"{p}/randwrite"].get("config.ftl.gc_pacing")).lower()
            lines += ["", f"Steady-state random writes, second half of the run, per {INTERVAL_MS} ms "
                      f"(`ftl.gc_pacing` = {pacing}): "
                      f"{spread['min']:,.0f} / {spread['median']:,.0f} / {spread['max']:,.0f} IOPS "
                      f"(least / median / most), {spread['stopped']:,} of {spread['intervals']:,} intervals with no write."]
        iss = results[f"{p}/iss"]
        lines += ["", f"On the ISS at a reduced size (`{workload(p, 'iss', scale)}`, "
                  f"nand.blocks_per_plane = {int(num(iss, 'config.nand.blocks_per_plane'))}): "
                  f"{int(num(iss, 'integrity.reads_checked')):,} reads checked, "
                  f"{int(num(iss, 'integrity.mismatches'))} mismatches.", ""]
    lines += [f"![sustained writes]({png.name})", "", "## The suite's checks", ""]
    claims = [c for p in present(results) for c in claims_of(p, results)]
    lines += checks_rows(claims) + ["", checks_verdict(failed_claims(claims)), ""]
    page = out / f"{prefix(scale)}.md"
    page.write_text("\n".join(lines))
    return [page, png]
