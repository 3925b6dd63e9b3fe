"""The MT-FTL study's report: docs/results/mtftl.md (full scale) or mtftl-scaled.md, with the
plots mtftl[-scaled]-inserts.png (each firmware core's buffer insertions per migration period
over time, without and with migration: from the runs' run.json host_cpu.insert_series) and,
at full scale, mtftl-period.png (bandwidth and insertion balance against the migration
period). Every figure on the page comes from the runs' run.json.

Leaves out running and checking (mtftl.py). Needs matplotlib (Debian's, through the venv).
"""
import json
from datetime import date
from pathlib import Path

from . import checks_rows, checks_verdict, findings_rows
from .mtftl import (CORE_COUNTS, CYCLE_MS, DEVICES, DURATION_MS, HOST_CYCLE_MS, HOST_DURATION_MS, MODES, PAPER_CYCLE_MS,
                    PAPER_ROUNDS, PERIODS, TYPES, WB_COSTS, WB_CYCLE_MS, WB_DURATION_MS, WB_SUBMIT_NS, WORKLOAD, Mtftl,
                    change, check_figures, imbalance, inserts, mbps, num, ring_imbalance, ring_inserts, rounds, work)


def prefix(scale):
    return "mtftl" if scale == "full" else "mtftl-scaled"


def series(row):
    """(t_ms, [per-core insertions]) per migration period, from the run's run.json."""
    folder = (row or {}).get("run_dir") or ""
    path = Path(folder) / "run.json"
    if not folder or not path.exists():
        return [], []
    s = json.loads(path.read_text()).get("host_cpu", {}).get("insert_series", [])
    return [p["t_ms"] for p in s], [p["per_cpu"] for p in s]


def plot_inserts(results, scale, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
    for ax, mode in zip(axes, MODES):
        t, per = series(results.get(f"migration/mlc/{mode}"))
        for k in range(len(per[0]) if per else 0):
            ax.plot(t, [p[k] * 4 / 1024 for p in per], linewidth=1, label=f"core {k}")
        ax.set_title(f"migration = {mode}")
        ax.set_xlabel("simulated time, ms")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel(f"MiB inserted per period of {rounds(scale):,} rounds")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_period(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ps = PERIODS["full"]
    rows = [results.get(f"period/{p}/greedy") for p in ps]
    none = results.get("migration/mlc/none")
    fig, (a, b) = plt.subplots(1, 2, figsize=(10.4, 3.8))
    a.plot(ps, [mbps(r) for r in rows], marker="o", label="greedy")
    a.axhline(mbps(none), color="gray", linestyle="--", label="no migration")
    a.set_ylabel("write MB/s")
    b.plot(ps, [imbalance(r) for r in rows], marker="o", label="greedy")
    b.axhline(imbalance(none), color="gray", linestyle="--", label="no migration")
    b.set_ylabel("insertions: busiest core / mean")
    for ax in (a, b):
        ax.set_xscale("log")
        ax.set_xlabel("migration period, balancer rounds")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def row_line(label, r, cores=4):
    ins = " / ".join(f"{x / 256:.0f}" for x in inserts(r, cores))
    return (f"| {label} | {ins} | {imbalance(r, cores):.2f} | {mbps(r):.1f} | "
            f"{num(r, 'ops.write.latency_us.mean'):.0f} | {work(r):.3f} | {num(r, 'host_cpu.migrations'):.0f} | "
            f"{num(r, 'host_cpu.balancer_moves'):.0f} | {num(r, 'utilisation.dies.mean'):.0%} |")


def cat_s(r, c):
    key = f"host_ftl.cpus.cpu_time_s_by_category.{c}"
    return num(r, key) if r is not None and key in r else 0.0


def host_line(label, r):
    ins = " / ".join(f"{x / 256:.0f}" for x in ring_inserts(r))
    return (f"| {label} | {ins} | {ring_imbalance(r):.2f} | {mbps(r):.1f} | "
            f"{num(r, 'ops.write.latency_us.mean'):.0f} | {work(r):.3f} | {num(r, 'host_cpu.migrations'):.0f} | "
            f"{num(r, 'host_ftl.blocked_submissions'):.0f} | {cat_s(r, 'writeback'):.3f} | "
            f"{num(r, 'utilisation.dies.mean'):.0%} | {num(r, 'waf'):.2f} |")


HOST_HEADER = ["| run | MiB inserted per ring | busiest / mean | write MB/s | write latency us (mean) | CPU work s | "
               "migrations | writes that waited on a full ring | write-back CPU s | units busy | WAF |",
               "|---|---|---|---|---|---|---|---|---|---|---|"]


def host_why(results):
    none, greedy = results.get("host/none"), results.get("host/greedy")
    if none is None or greedy is None:
        return []
    if change(mbps(greedy), mbps(none)) > 0.2:   # the finding holds: nothing to explain
        return []
    t = num(none, "sim_time_s")
    share = cat_s(none, "writeback") / (4 * t) if t else float("nan")
    return [
        "**Why the bandwidth does not follow in the paper's setting.** MT-FTL's gain needs a ring that drains "
        "slower than the device takes data: a CPU crowded with computing threads gives its write-back thread a "
        "small share, its ring stays full and its writers block, while other rings idle. Here the rings' "
        f"write-back threads need {share:.2%} of the CPUs' time (the FTL's instructions per flash operation, "
        "measured on the ISS, at 3.4 GHz), so even a crowded CPU drains its ring as fast as the device programs: "
        f"the units are {num(none, 'utilisation.dies.mean'):.0%} busy with or without migration, and migration "
        f"moves the insertions (rings' max/mean {ring_imbalance(none):.2f} -> {ring_imbalance(greedy):.2f}) but "
        "not the bandwidth. What the real system has and this one does not: pblk's write path per sector (bio "
        "building, address mapping, metadata), which may cost its write-back thread more CPU than ssdvp's FTL "
        "spends, and FEMU's emulation, which ran on the same host's CPUs as the guest." + wb_why(results), ""]


def wb_why(results):
    rows = wbcost_rows(results, "full")
    if not rows:
        return " Neither is modelled (docs/host-ftl.md)."
    changes = [change(mbps(g), mbps(n)) for _, _, n, g in rows]
    best = max(range(len(rows)), key=lambda k: changes[k])
    i, sub, n, g = rows[best]
    return (
        " The what-if above raises both costs (they have no published figure, so the reproduction keeps the "
        f"project's own): migration's change in bandwidth then spans {span(changes)}, at most at {i:,} "
        f"instructions per sector and a {sub / 1e3:g} us submission, where the device's units are "
        f"{num(n, 'utilisation.dies.mean'):.0%} busy without migration. Still missing against the real system: "
        "a writer inside an insert is never moved here (Linux may move it, and MT-FTL's next retry then goes to the "
        "new CPU's ring), and the guest's own costs per write are unknown (docs/multicore.md, docs/host-ftl.md).")


def host_section(results, scale):
    none, greedy = results.get("host/none"), results.get("host/greedy")
    if none is None or greedy is None:
        return []
    t = num(none, "sim_time_s")
    return [
        "### The paper's setting: MT-FTL on the host", "",
        "`platforms/mtftl-femu.toml`: 4 CPUs at 3.4 GHz (the paper's i5-4670), `host.ftl = mtftl` with a ring of "
        "1,024 4 KiB entries and a write-back thread per CPU, pinned to it; the paper's 8 GiB FEMU Open-Channel "
        "device (16 units, 32 chunks each, 40/200/2000 us NAND), fresh; a write completes once copied into its "
        "CPU's ring and, while the ring is full, retries and yields its CPU as pblk does "
        f"(`host.ftl.full_ring = yield`). Cycles of {HOST_CYCLE_MS[scale]:g} ms (the paper: 3 s), "
        f"{HOST_DURATION_MS[scale]:g} ms simulated, migration every "
        f"{int(round(PAPER_ROUNDS * HOST_CYCLE_MS[scale] / PAPER_CYCLE_MS)):,} balancer rounds.", "",
        *HOST_HEADER, host_line("none", none), host_line("greedy", greedy), "",
        f"The rings' write-back threads use {cat_s(none, 'writeback'):.3f} CPU-s of the "
        f"{4 * t:.1f} the 4 CPUs have over the run without migration; the parallel units are "
        f"{num(none, 'utilisation.dies.mean'):.0%} busy. The paper's device was fresh and saw no GC over its "
        f"600 s; here the threads write {num(none, 'ops.write.bytes') / 2**30:.1f} GiB in {t:.0f} s into "
        f"{num(none, 'ftl.logical_sectors') * 4096 / 2**30:.1f} GiB of logical space"
        + (f", so GC runs (WAF {num(none, 'waf'):.2f}) and bounds the writes once the device is full: this host "
           "writes far faster than the paper's emulated one did." if num(none, "waf") > 1.05 else
           f" (WAF {num(none, 'waf'):.2f}: no GC)."), ""]


def wbcost_rows(results, scale):
    """(instructions, submit ns, none row, greedy row) of the what-if sweep that ran."""
    out = []
    for i in WB_COSTS[scale]:
        for sub in WB_SUBMIT_NS:
            none, greedy = results.get(f"wbcost/{i}/{sub}/none"), results.get(f"wbcost/{i}/{sub}/greedy")
            if none is not None and greedy is not None:
                out.append((i, sub, none, greedy))
    return out


def device_bound(row):
    """The Open-Channel device's units were the bound: at least 85 % busy."""
    return num(row, "utilisation.dies.mean") >= 0.85


def span(values):
    return f"{min(values):+.1%} to {max(values):+.1%}" if values else "(no runs)"


def wbcost_section(results, scale):
    rows = wbcost_rows(results, scale)
    if not rows:
        return []
    ns_per_instr = 1e3 / 3400.0
    changes = [change(mbps(g), mbps(n)) for _, _, n, g in rows]
    best = max(range(len(rows)), key=lambda k: changes[k])
    lines = [
        "### What-if: a costlier write-back or submission (not the paper's setting)", "",
        "The same setting with two costs raised that ssdvp's host FTL keeps small and the paper's system had large, "
        "with no published figure for either: the write-back thread's CPU per sector it programs "
        "(`host.ftl.writeback_sector_instructions`, standing for pblk's bio and PPA-list building and for FEMU's "
        "emulation on the same CPUs) and a write's submission on its thread's CPU (`host.stack.submit_ns`). "
        f"Cycles of {WB_CYCLE_MS:g} ms, {WB_DURATION_MS:g} ms simulated (short enough that the fresh device sees no "
        "GC: see WAF), migration every "
        f"{int(round(PAPER_ROUNDS * WB_CYCLE_MS / PAPER_CYCLE_MS)):,} rounds; the values were chosen before the runs "
        "(0 and powers of two; the default submission and ten times it).", "",
        "| write-back instr/sector (us) | submit us | none MB/s | greedy MB/s | change | rings max/mean none -> greedy "
        "| units busy (none) | write-back CPU share (none) | CPU work change | WAF |",
        "|---|---|---|---|---|---|---|---|---|---|"]
    for (i, sub, n, g), ch in zip(rows, changes):
        t = num(n, "sim_time_s")
        share = cat_s(n, "writeback") / (4 * t) if t else float("nan")
        lines.append(
            f"| {i:,} ({i * ns_per_instr / 1e3:.2f}) | {sub / 1e3:g} | {mbps(n):.1f} | {mbps(g):.1f} | {ch:+.1%} | "
            f"{ring_imbalance(n):.2f} -> {ring_imbalance(g):.2f} | {num(n, 'utilisation.dies.mean'):.0%} | "
            f"{share:.1%} | {change(work(g), work(n)):+.1%} | {num(n, 'waf'):.2f} |")
    i, sub, n, g = rows[best]
    dev = [c for (_, _, n_, _), c in zip(rows, changes) if device_bound(n_)]
    host = [(c, n_) for (_, _, n_, _), c in zip(rows, changes) if not device_bound(n_)]
    lines += [
        "",
        f"Across the sweep migration changes the bandwidth by {span(changes)}, the most at {i:,} instructions per "
        f"sector and a {sub / 1e3:g} us submission. Where the device's units are at least 85 % busy without "
        f"migration ({len(dev)} of {len(rows)} pairs) it changes it by {span(dev)}: the device is the bound and no "
        f"placement of the writers can add to it. Where they are less busy ({len(host)} pairs: the host's CPUs "
        f"are the bound) it changes it by {span([c for c, _ in host])}, with the rings' insertions max/mean "
        f"without migration {span_plain([ring_imbalance(n_) for _, n_ in host])}.", ""]
    return lines


def span_plain(values):
    return f"{min(values):.2f} to {max(values):.2f}" if values else "(no runs)"


HEADER = ["| run | MiB inserted per core | busiest / mean | write MB/s | write latency us (mean) | CPU work s | "
          "migrations | balancer moves | dies busy |", "|---|---|---|---|---|---|---|---|---|"]


def write_report(results, scale, report_dir, findings):
    out = Path(report_dir)
    out.mkdir(parents=True, exist_ok=True)
    pre = prefix(scale)
    files = [out / f"{pre}-inserts.png"]
    plot_inserts(results, scale, files[0])
    if PERIODS[scale]:
        files.append(out / f"{pre}-period.png")
        plot_period(results, files[-1])
    errors = Mtftl().checks(results)
    title = "MT-FTL task migration" + ("" if scale == "full" else " (scaled)")
    lines = [
        f"# {title}", "",
        "<!-- Written by scripts/ssdvp_sweep/experiments/mtftl_report.py from the runs it quotes: edit the script, "
        "not this page. -->", "",
        "The MT-FTL paper ([mtftl](../references.md#mtftl)) gives each CPU core of a host FTL its own "
        "write buffer and write-back thread; a thread writes into the buffer of the core it runs on, and Linux's "
        "balancer, which looks at CPU load only, leaves the I/O on some cores. Migrating, every period, the thread "
        "with the most buffer insertions from the most-inserted core to the least-inserted one gave +57 % bandwidth "
        "at about -1 % CPU work. It runs here in the paper's setting, MT-FTL on the host over an Open-Channel "
        "device (docs/host-ftl.md), and, as a second setting, with the buffers as the firmware cores' parts of the "
        "device's write buffer (docs/multicore.md): host CPU c submits on queue c, served by firmware core c.", "",
        "## Setup (the device-FTL setting; the paper's is under Results)", "",
        f"* **Host**: 4 CPUs, 4 queues; {16} threads of the paper's types `{TYPES}` (two each), cycles of "
        f"{CYCLE_MS[scale]:g} ms (the paper: 3 s; `host.cpu.cycle_ms`), {DURATION_MS[scale]:g} ms simulated (the "
        f"paper: 600 s); in its I/O phase a thread writes `{WORKLOAD}` (1 to 10 random 4 KiB pages, QD 1, as the "
        "paper's direct I/O); each request costs its thread the host I/O stack's submission and interrupt on its "
        "CPU (`host.stack`), shared with the threads computing there; the OS balancer's rounds: periodic every "
        "4 ms (`host.cpu.balance_ms`), newly idle, and at each wake-up (docs/multicore.md); migration every "
        f"{rounds(scale):,} rounds (`host.migration_rounds`: the paper's 30,000 scaled with the cycle) unless swept.",
        "* **Device**: `platforms/default.toml` (32 MLC dies; `nand.cell = slc` for the SLC rows), written once "
        "before each run; 4 firmware cores, each with a ring of one stripe (`ftl.write_buffer = ring`, "
        "`ftl.ring.stripes = 1`), as small a per-core buffer as the ring allows.", "",
        "```",
        f"scripts/reproduce.py --scale {scale} --only mtftl                    # runs, checks, this page",
        f"scripts/mtftl_experiment.py --scale {scale} --report docs/results    # the same",
        "```", "",
        "## Results", "",
    ] + HEADER + [row_line(f"{d.upper()}, {m}", results.get(f"migration/{d}/{m}"))
                  for d in DEVICES[scale] for m in MODES] + ["",
        f"![insertions per core over time]({pre}-inserts.png)", ""]
    lines[lines.index("## Results") + 2:lines.index("## Results") + 2] = host_section(results, scale) + [
        *wbcost_section(results, scale),
        "### The same technique in a device FTL", "",
        "Each firmware core's part of the device's write buffer stands for a CPU's ring (below: the setup above).",
        ""]
    if PERIODS[scale]:
        lines += ["### Migration period (MLC, greedy)", ""] + HEADER + [
            row_line(f"{p:,} rounds", results.get(f"period/{p}/greedy")) for p in PERIODS[scale]] + [
            "", f"![bandwidth and balance against the period]({pre}-period.png)", ""]
    if CORE_COUNTS[scale]:
        lines += ["### Firmware cores (MLC; 4 CPUs and queues: with fewer cores a core serves several CPUs)", ""] + \
            HEADER + [row_line(f"{n} cores, {m}", results.get(f"cores/{n}/{m}"), n)
                      for n in CORE_COUNTS[scale] for m in MODES] + [""]
    lines += [
        "## Findings", "", *findings_rows(findings), "",
        *host_why(results),
        "**Why the bandwidth does not follow in a device FTL.** The concentration is real (the balancer, blind to I/O, leaves the "
        "writers on some CPUs and so on some firmware cores) and migration evens it out, as in the paper; but a "
        "firmware core's part of the buffer drains through a writer that can use every die, so a hot core's part "
        "drains as fast as four parts would, and the dies (see their utilisation above) are the bound either way. "
        "In MT-FTL each core's buffer is emptied by a host write-back thread whose CPU work per buffer is the "
        "limit; ssdvp's writers are firmware code under one lock with no per-writer limit (docs/multicore.md), so "
        "there is nothing for an even spread to add. The CPU work moves by about the paper's amount.", "",
        "## Checks (the test suite's, on the scaled runs)", "", *checks_rows(check_figures(results)), "",
        checks_verdict(errors), "",
        f"Generated {date.today().isoformat()} from {len(results)} runs.", ""]
    page = out / (pre + ".md")
    page.write_text("\n".join(lines))
    return [page] + files
