"""The write-buffer / thread study's report, written from the store rows of its runs:
docs/results/write-buffer.md (full scale) or write-buffer-scaled.md. Two settings, each with its
plots: pblk on the host (the paper's; plots write-buffer[-scaled]-host-*.png, its lock and CPU
costs, the write-back what-if) and the ring in a device FTL (write-buffer[-scaled]-*.png):
-read.png (random-read MB/s against threads, one line per buffer), -write.png (random and
sequential write MB/s against threads) and -hits.png (the ring's read-hit ratio and read MB/s of
the mix against the buffer size). Every figure on the page comes from the runs' run.json (the
store's rows).

Leaves out running and checking (write_buffer.py). Needs matplotlib (Debian's, through the venv).
"""
from datetime import date
from pathlib import Path

from . import checks_rows, checks_verdict, findings_rows
from .write_buffer import (CAPACITY_BLOCKS, HOST_SETTINGS, MIXED_BUFFERS, MIXED_THREADS, PRECOND_FILL, SPECS, THREADS, WB_COSTS,
                           WRITE_MIB, WriteBuffer, check_figures, grid, inserted, lock_spin_ns, mbps, num,
                           setting_findings, setting_prefix, workload, writeback_share)

OPS = {"randread": "read", "randwrite": "write", "seqwrite": "write"}
TITLES = {"randread": "random read", "randwrite": "random write", "seqwrite": "sequential write"}


def prefix(scale):
    return "write-buffer" if scale == "full" else "write-buffer-scaled"


def axes_of(results, part, scale, host=False):
    pts = grid(part, scale, host)
    return sorted({t for t, _ in pts}), sorted({b for _, b in pts})


def plot_threads(results, scale, parts, path, ylabel, host=False):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pre = setting_prefix(host)
    parts = [p for p in parts if grid(p, scale, host)]
    fig, axes = plt.subplots(1, len(parts), figsize=(5.2 * len(parts), 4), squeeze=False)
    for ax, part in zip(axes[0], parts):
        ts, bufs = axes_of(results, part, scale, host)
        for b in bufs:
            ax.plot(ts, [mbps(results.get(f"{pre}{part}/{t}/{b}"), OPS[part]) for t in ts], marker="o", markersize=3,
                    label=f"{b} MiB ring")
        ax.set_xlabel("threads (QD 1 each)")
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        ax.set_title(TITLES[part])
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_hits(results, scale, path, host=False):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    bufs = MIXED_BUFFERS[scale]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10.4, 4))
    for t in MIXED_THREADS[scale]:
        rows = [results.get(f"{setting_prefix(host)}mixed/{t}/{m}") for m in bufs]
        a.plot(bufs, [100 * num(r, "write_buffer.read_hit_ratio") for r in rows], marker="o", label=f"{t} threads")
        b.plot(bufs, [mbps(r, "read") for r in rows], marker="o", label=f"{t} threads")
    a.set_ylabel("reads served from the ring, %")
    b.set_ylabel("read MB/s")
    for ax in (a, b):
        ax.set_xlabel("ring size, MiB")
        ax.set_xscale("log", base=2)
        ax.set_xticks(bufs, [str(m) for m in bufs])
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    a.set_title("buffer read hits (50 % reads, 1 GiB)")
    b.set_title("read throughput of the mix")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def table(results, part, scale, key=None, fmt="{:.0f}", host=False):
    ts, bufs = axes_of(results, part, scale, host)
    out = ["| threads | " + " | ".join(f"{b} MiB" for b in bufs) + " |", "|---|" + "---|" * len(bufs)]
    for t in ts:
        cells = []
        for b in bufs:
            r = results.get(f"{setting_prefix(host)}{part}/{t}/{b}")
            cells.append("—" if r is None else fmt.format(num(r, key) if key else mbps(r, OPS.get(part, "read"))))
        out.append(f"| {t} | " + " | ".join(cells) + " |")
    return out


def mixed_table(results, scale, host=False):
    out = ["| threads | ring MiB | read hits | read MB/s | write MB/s | read p50 µs | ring fill at insert | "
           "write stalls |", "|---|---|---|---|---|---|---|---|"]
    for t, b in grid("mixed", scale, host):
        r = results.get(f"{setting_prefix(host)}mixed/{t}/{b}")
        if r is None:
            continue
        out.append(f"| {t} | {b} | {100 * num(r, 'write_buffer.read_hit_ratio'):.2f} % | {mbps(r, 'read'):.0f} | "
                   f"{mbps(r, 'write'):.0f} | {num(r, 'ops.read.latency_us.p50'):.1f} | "
                   f"{100 * num(r, 'write_buffer.fill_at_insert'):.0f} % | {int(num(r, 'ftl.write_stalls')):,} |")
    return out


def peak(values):
    return max(values) if values else 0.0


def chan(r):
    """Mean channel utilisation of a run (run.json utilisation.channels.mean)."""
    return num(r, "utilisation.channels.mean")


def host_cost_table(results, scale, part="randwrite", mib=32):
    """Where a host write's CPU goes, by threads: the lock, the retries, the write-back thread."""
    ts = [t for t, b in grid(part, scale, True) if b == mib]
    out = ["| threads | write MB/s | channels busy | writes that waited | retries | lock acquisitions per sector | "
           "contended | handed across sockets | spin µs per sector | retry CPU µs per sector | "
           "write-back CPU share |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for t in ts:
        r = results.get(f"host/{part}/{t}/{mib}")
        if r is None:
            continue
        n = inserted(r)
        acq = num(r, "host_ftl.lock.acquisitions")
        out.append(
            f"| {t} | {mbps(r, 'write'):.0f} | {chan(r):.0%} | {int(num(r, 'host_ftl.blocked_submissions')):,} | "
            f"{int(num(r, 'host_ftl.retries')):,} | {acq / n:.2f} | {num(r, 'host_ftl.lock.contended') / acq:.0%} | "
            f"{num(r, 'host_ftl.lock.socket_handoffs') / acq:.0%} | {lock_spin_ns(r) / 1e3:.2f} | "
            f"{num(r, 'host_ftl.cpus.cpu_time_s_by_category.retry') * 1e6 / n:.2f} | {writeback_share(r):.1%} |")
    return out


def wbcost_series(results):
    """{instructions: [(threads, row)]} of the what-if (0: the host grid's own 32 MiB random writes)."""
    out = {0: [(t, results.get(f"host/randwrite/{t}/32")) for t in THREADS["full"]]}
    for c in WB_COSTS["full"]:
        out[c] = [(t, results.get(f"wbcost/{c}/{t}/32")) for t in THREADS["full"]]
    return {c: [(t, r) for t, r in v if r is not None] for c, v in out.items()}


def wbcost_section(results):
    series = wbcost_series(results)
    if not any(series.get(c) for c in WB_COSTS["full"]):
        return []
    ts = [t for t, _ in series[0]]
    lines = ["", "### What-if: a costlier write-back (not the paper's setting)", "",
             "pblk's write-back thread builds a bio page and a PPA-list entry for each sector and handles each "
             "sector's completion (pblk_rb_read_to_bio, the mapping of a request, pblk_end_w_bio); the project's "
             "FTL builds one flash operation per write unit, so its write-back costs about 15 ns a sector. The "
             "same 32 MiB random writes with `host.ftl.writeback_sector_instructions` added to each sector the "
             "write-back thread programs (no published figure: a what-if, at 2.4 GHz and IPC 1):", "",
             "| instructions per sector (µs) | " + " | ".join(f"{t} thr" for t in ts) +
             " | write-back CPU share at 18 / 72 |", "|---|" + "---|" * (len(ts) + 1)]
    for c, rows in series.items():
        by_t = dict(rows)
        cells = [f"{mbps(by_t[t], 'write'):.0f}" if t in by_t else "—" for t in ts]
        shares = " / ".join(f"{writeback_share(by_t[t]):.0%}" if t in by_t else "—" for t in (18, 72))
        lines.append(f"| {c:,} ({c / 2400:.2f}) | " + " | ".join(cells) + f" | {shares} |")
    lines += ["", "Write MB/s by threads. " + wbcost_reading(series)]
    return lines


def wbcost_reading(series):
    """What the what-if shows, in words computed from its figures."""
    out = []
    for c, rows in series.items():
        if not rows:
            continue
        w = [mbps(r, "write") for _, r in rows]
        peak_i = w.index(max(w))
        falls = w[-1] < 0.9 * max(w)
        text = f"{c:,} instructions: peak {max(w):.0f} MB/s at {rows[peak_i][0]} threads, "
        if falls and len(rows) > 1:
            (t0, r0), (t1, r1) = rows[-2], rows[-1]
            text += (f"{t1} threads {w[-1] / max(w) - 1:+.0%} (the write-back thread's CPU share "
                     f"{writeback_share(r0):.0%} at {t0} threads, {writeback_share(r1):.0%} at {t1}: with {t1} threads "
                     "a user thread shares its CPU, host.ftl.writeback_cpu)")
        else:
            text += "no fall beyond it"
        out.append(text)
    return ("; ".join(out) + ". A write-back that costs CPU per sector caps the writes where its CPU runs out, and "
            "lowers them once a user thread shares its CPU; before that, more writers do not slow it.")


def why(results, scale):
    ts, bufs = axes_of(results, "randread", scale)
    b0 = bufs[0]
    r54, r72 = results.get(f"randread/54/{b0}"), results.get(f"randread/72/{b0}")
    lines = [
        f"* **Reads flatten at the channels.** A 4 KiB read holds its channel for the transfer (4 KiB at 280 MB/s, "
        "15 µs) and 16 PUs share each of the 8 channels, so the drive tops out near 2.2 GB/s of 4 KiB reads. "
        f"Mean channel utilisation: {100 * chan(r54):.0f} % at 54 threads, {100 * chan(r72):.0f} % at 72; the "
        f"median read latency grows from {num(r54, 'ops.read.latency_us.p50'):.0f} to "
        f"{num(r72, 'ops.read.latency_us.p50'):.0f} µs as reads queue for the bus. The paper's host (72 cores, pblk "
        "in the kernel) adds lock costs per request that this host model does not have (the host I/O stack, "
        "host.stack, charges each request's submission and interrupt as CPU time on its own thread's CPU, shared "
        "with nobody; the ring's lock is in the device), so its curve may flatten earlier for that reason too "
        "(the host setting above has them).",
        "* **The ring serves the last ring-full of written data.** pblk points its map at a ring entry until the "
        "memory pointer needs the entry again (the lazy l2p update), and so does `ftl.write_buffer = ring`: a read "
        "of any of the last 32 ... 256 MiB written is served from DRAM. After the 8 GiB fill, random reads over "
        "it find that share in the ring: " + ", ".join(
            f"{b} MiB {100 * num(results.get(f'randread/{ts[-1]}/{b}'), 'write_buffer.read_hit_ratio'):.2f} %"
            for b in bufs) + f" of the reads at {ts[-1]} threads. With writes beside the reads (the mix, 1 GiB), "
        "the ring holds a larger share of what is read and the hits and read throughput grow with its size "
        "(the table above): the paper's explanation of reads rising with the buffer.",
    ]
    if grid("randwrite", scale):
        ts_w, bufs_w = axes_of(results, "randwrite", scale)
        rw = {b: [mbps(results.get(f"randwrite/{t}/{b}"), "write") for t in ts_w] for b in bufs_w}
        lo, hi = bufs_w[0], bufs_w[-1]

        def row(t, b):
            return results.get(f"randwrite/{t}/{b}")

        def flash_mbps(r):   # what the flash programmed, MB/s of simulated time
            sim = num(r, "sim_time_s")
            return num(r, "ftl.flash_program_sectors") * 4096 / sim / 1e6 if sim else 0.0
        two, last = row(ts_w[0], lo), row(ts_w[-1], lo)
        top = max(mbps(row(t, lo), "write") for t in ts_w)
        sat = next(t for t in ts_w if mbps(row(t, lo), "write") >= 0.9 * top)   # the first within 10 % of the best
        below = [t for t in ts_w if t < sat]
        before = row(below[-1], lo) if below else two
        full = num(last, "write_buffer.fill_at_insert")
        lines += [
            f"* **Writes are bound by the channels from about {sat} threads.** A write is acknowledged once its data "
            f"is in the ring; {ts_w[0]} QD 1 threads bring {mbps(two, 'write'):.0f} MB/s (channels "
            f"{100 * chan(two):.0f} % busy), {below[-1] if below else ts_w[0]} threads {mbps(before, 'write'):.0f} MB/s, "
            f"{sat} threads {mbps(row(sat, lo), 'write'):.0f} MB/s (a QD 1 write takes "
            f"{num(two, 'ops.write.latency_us.mean'):.1f} µs at {ts_w[0]} threads: the host I/O stack's submission "
            "and interrupt and the trip to the device's ring; pblk acknowledges a write once it is copied into the "
            "host's ring, without the trip to the device and its interrupt), "
            "and from there the channels are the limit "
            f"({100 * chan(last):.0f} % busy at {ts_w[-1]} threads; 8 x 280 MB/s carry about 2.2 GB/s with the "
            "commands): the ring fills and writes wait for space "
            f"({100 * full:.0f} % of the {lo} MiB ring in use at each insert at {ts_w[-1]} threads, "
            f"{int(num(last, 'ftl.write_stalls')):,} writes waited). Random and sequential writes match: the "
            "log-structured FTL programs both in arrival order, and no run reaches GC.",
            f"* **A larger ring shows more MB/s only because a run is short.** Each run writes {WRITE_MIB} MiB and "
            "the ring absorbs its first ring-full at host speed (acknowledged, programmed later): at "
            f"{ts_w[-1]} threads the host saw {mbps(last, 'write'):.0f} MB/s with {lo} MiB and "
            f"{mbps(row(ts_w[-1], hi), 'write'):.0f} MB/s with {hi} MiB, while the flash programmed "
            f"{flash_mbps(last):.0f} and {flash_mbps(row(ts_w[-1], hi)):.0f} MB/s of simulated time. Sustained, the "
            "ring's size does not change the write rate; it changes how long a burst is absorbed and how many "
            "reads it serves (above).",
            f"* **The paper's fall with 32 MB after 18 threads** does not appear: with the {lo} MiB ring full, "
            "random writes hold at " + ", ".join(f"{t}: {x:.0f}" for t, x in zip(ts_w, rw[lo])) + " MB/s. A full "
            "ring costs a waiting writer nothing here: the thread sleeps until its command completes. In pblk the "
            "ring is a kernel structure under a spin lock that every submitting CPU takes, so with the ring always "
            "full more threads means more CPUs spinning for the same space; here the ring and its lock are in "
            "the device, and the host's only CPU cost is the I/O stack's on each thread's own CPU (host.stack), so "
            "it cannot show that fall (the host setting above puts the ring and its lock on the host CPUs)."]
    return lines


def host_why(results, scale):
    """Why the host setting's figures are what they are, from its runs."""
    ts, bufs = axes_of(results, "randread", scale, True)
    b0 = bufs[0]
    h72, d72 = results.get(f"host/randread/{ts[-1]}/{b0}"), results.get(f"randread/{ts[-1]}/{b0}")
    lines = [
        f"* **Reads are the device's in both settings.** At {ts[-1]} threads the host setting reads "
        f"{mbps(h72, 'read'):.0f} MB/s (median {num(h72, 'ops.read.latency_us.p50'):.0f} µs), the device FTL "
        f"{mbps(d72, 'read'):.0f} MB/s ({num(d72, 'ops.read.latency_us.p50'):.0f} µs): a read's lookup under pblk's "
        f"lock costs {num(h72, 'host_ftl.lock.spin_s') * 1e9 / max(1.0, num(h72, 'ops.read.requests')):.0f} ns of "
        "spinning on average, small beside the flash read and the channel transfer, and the channels "
        f"({chan(h72):.0%} busy) bound both."]
    if not grid("randwrite", scale, True):
        return lines
    tw = [t for t, b in grid("randwrite", scale, True) if b == b0]

    def hw(t):
        return results.get(f"host/randwrite/{t}/{b0}")
    lo, hi = tw[0], tw[-1]
    dev = results.get(f"randwrite/{lo}/{b0}")
    lat = num(hw(lo), 'ops.write.latency_us.mean')
    lines.append(
        f"* **A write is acknowledged once copied into the host's ring.** With {lo} threads a write takes "
        f"{lat:.1f} µs on the host (the I/O stack's submission, the lock, the copy)" +
        (f", {num(dev, 'ops.write.latency_us.mean'):.1f} µs in the device FTL (the trip to the device's ring and "
         "its interrupt besides)" if dev is not None else "") +
        f"; once the ring is full the channels are the limit ({chan(hw(hi)):.0%} busy at {hi} threads on the host).")
    if scale == "full":
        r18, r36, r72 = hw(18), hw(36), hw(72)
        fall = mbps(r72, "write") < 0.9 * max(mbps(hw(t), "write") for t in tw)
        lines.append(
            "* **The cost of more writers on a full 32 MiB ring is CPU, not bandwidth.** From 18 to 72 threads "
            f"each written sector costs {lock_spin_ns(r18) / 1e3:.1f}, {lock_spin_ns(r36) / 1e3:.1f} and "
            f"{lock_spin_ns(r72) / 1e3:.1f} µs of spinning on the ring's lock (18, 36, 72 threads) and "
            + ", ".join(f"{num(r, 'host_ftl.cpus.cpu_time_s_by_category.retry') * 1e6 / inserted(r):.1f}"
                        for r in (r18, r36, r72)) +
            " µs of retrying: every waiting writer takes the lock again whenever space is freed, and "
            f"{num(r72, 'host_ftl.lock.socket_handoffs') / num(r72, 'host_ftl.lock.acquisitions'):.0%} of the "
            "acquisitions at 72 threads hand the lock to another socket. The write-back thread needs "
            f"{writeback_share(r72):.1%} of its CPU and still gets the lock in its turn, so the device stays fed "
            f"({chan(r72):.0%} of the channels' time) and the throughput "
            + ("falls" if fall else "holds") + f": {mbps(r18, 'write'):.0f}, {mbps(r36, 'write'):.0f}, "
            f"{mbps(r72, 'write'):.0f} MB/s.")
        if not fall:
            lines.append(
                "* **What the platform still lacks for the paper's fall.** The paper's own explanation (the buffer "
                "always full) holds here too and does not lower the throughput by itself. Two mechanisms of the "
                "real system that could: (1) pblk's write-back spends CPU per sector (bio pages, PPA lists, "
                "per-sector completion) that the project's FTL does not have, so its thread is never the limit "
                "here: the what-if below adds that cost; (2) a writer in pblk_write_to_cache retries in a loop "
                "(io_schedule() and retry, taking the ring's lock each time) for as long as the ring is full, "
                "and with 36 or more such CPUs the lock's cache line is always in flight; here a waiting writer "
                "retries once each time space is freed, so its lock traffic scales with the frees, not with "
                "the time it waits (docs/host-ftl.md, Weak). Neither would slow pblk's write-back through the "
                "lock: pblk's write-back thread reads ring entries without the ring's lock (w_lock) and its "
                "completions advance the sync pointer under another (s_lock). Here the write-back thread takes "
                "the one lock the writers take (one lock for the map and the ring, docs/host-ftl.md, Weak), so "
                "the platform errs toward slowing the write-back as writers are added, and still shows no fall; "
                "modelling the retry loop on that one lock would make a fall out of that simplification, "
                "so it is not done.")
            bound = max(mbps(hw(t), "write") for t in tw)
            per_thread = 4096 / lat   # MB/s of one QD 1 thread at the 2-thread latency
            lines.append(
                "* **Where the paper's rise to 18 threads would come from.** A QD 1 thread writes one 4 KiB "
                f"block per write time: at {lat:.1f} µs that is {per_thread:.0f} MB/s, so {bound / per_thread:.1f} "
                f"threads fill the channels ({bound:.0f} MB/s) and every thread count from {lo} on is at the bound. "
                "The paper's 64 MB and larger rings gain a little from 2 to 4 threads and nothing after, which a "
                f"write time of about {4 * 4096 / bound:.0f} µs or more gives (4 threads to fill the channels); "
                "its 32 MB ring rising up to 18 threads needs about "
                f"{18 * 4096 / bound:.0f} µs per write at 18 threads. The host's write path here is the modelled "
                "I/O stack's submission (`host.stack.submit_ns` = 2 µs, chosen: no figure of the paper's kernel), "
                "the lock and the copy; the paper gives no latency, so that difference is stated, not tuned away.")
    return lines


def comparison(results):
    """The two settings side by side (full scale): the figures that differ."""
    rows = ["| figure | pblk on the host | device FTL |", "|---|---|---|"]
    for label, tag, op, key in [
            ("random read, 72 threads, 32 MiB: MB/s", "randread/72/32", "read", None),
            ("random write, 2 threads, 32 MiB: MB/s", "randwrite/2/32", "write", None),
            ("random write, 2 threads, 32 MiB: mean latency µs", "randwrite/2/32", "write", "ops.write.latency_us.mean"),
            ("random write, 18 threads, 32 MiB: MB/s", "randwrite/18/32", "write", None),
            ("random write, 72 threads, 32 MiB: MB/s", "randwrite/72/32", "write", None),
            ("random write, 72 threads, 256 MiB: MB/s", "randwrite/72/256", "write", None),
            ("mixed, 72 threads, 256 MiB: read hits", "mixed/72/256", "read", "write_buffer.read_hit_ratio")]:
        h, d = results.get("host/" + tag), results.get(tag)
        if h is None or d is None:
            continue

        def fig(r):
            if key == "write_buffer.read_hit_ratio":
                return f"{num(r, key):.1%}"
            return f"{num(r, key):.1f}" if key else f"{mbps(r, op):.0f}"
        rows.append(f"| {label} | {fig(h)} | {fig(d)} |")
    return rows


def capacity_note(results, scale):
    """The largest device the host FTL addresses against the 64-block one (full scale), or ""."""
    blocks = CAPACITY_BLOCKS.get(scale)
    big, small = results.get(f"capacity/{blocks}/36/32"), results.get("host/randwrite/36/32")
    if not blocks or big is None or small is None:
        return ""
    return (f" The largest device the host FTL's 3 GiB map addresses, {blocks} blocks per PU (1.4 TiB; "
            f"`host.ftl.memory_mib = 3072`), gives 36 threads of random writes with the 32 MiB ring "
            f"{mbps(big, 'write'):.0f} MB/s and {lock_spin_ns(big) / 1e3:.1f} µs of lock spin per sector, against "
            f"{mbps(small, 'write'):.0f} MB/s and {lock_spin_ns(small) / 1e3:.1f} µs with 64 blocks "
            f"(`capacity/{blocks}/36/32`, the same 8 GiB written before it).")


def setting_sections(results, scale, pre, host, level="###"):
    """The tables and plots of one setting; returns (lines, files)."""
    out = Path(pre).parent
    stem = Path(pre).name + ("-host" if host else "")
    files = [out / f"{stem}-read.png"]
    plot_threads(results, scale, ["randread"], files[-1], "read MB/s", host)
    lines = [f"{level} Random read", "", f"![read throughput]({stem}-read.png)", "",
             "Read MB/s by threads and ring size:", ""] + table(results, "randread", scale, host=host)
    if grid("randwrite", scale, host) and grid("seqwrite", scale, host):
        files.append(out / f"{stem}-write.png")
        plot_threads(results, scale, ["randwrite", "seqwrite"], files[-1], "write MB/s", host)
        lines += ["", f"{level} Writes", "", f"![write throughput]({stem}-write.png)", "",
                  "Random write MB/s:", ""] + table(results, "randwrite", scale, host=host) + [
                  "", "Sequential write MB/s:", ""] + table(results, "seqwrite", scale, host=host) + [
                  "", "Ring fill at each insert, random write (mean share of the ring in use):", ""] + \
            table(results, "randwrite", scale, "write_buffer.fill_at_insert", "{:.0%}", host)
    if host and grid("randwrite", scale, True):
        lines += ["", f"{level} Where a write's CPU time goes (random write, 32 MiB ring)", "",
                  "From run.json `host_ftl` (docs/host-ftl.md): the lock's acquisitions, how many found it held and "
                  "how many handed it to another socket; the CPU spun on it and spent retrying, per sector written; "
                  "the write-back thread's CPU time over the run's simulated time (its time includes draining the ring "
                  "after the last write, so it can pass 100 %):", ""] + host_cost_table(results, scale)
    files.append(out / f"{stem}-hits.png")
    plot_hits(results, scale, files[-1], host)
    lines += ["", f"{level} Buffer hits", "", f"![buffer hits]({stem}-hits.png)", ""] + mixed_table(results, scale, host)
    if host and scale == "full":
        lines += wbcost_section(results)
    return lines, files


def write_report(results, scale, report_dir, findings):
    out = Path(report_dir)
    out.mkdir(parents=True, exist_ok=True)
    pre = prefix(scale)
    host_lines, host_files = setting_sections(results, scale, str(out / pre), True)
    dev_lines, dev_files = setting_sections(results, scale, str(out / pre), False)
    errors = WriteBuffer().checks(results)
    any_run = next(iter(results.values()))
    title = "write buffer and threads on an Open-Channel SSD" + ("" if scale == "full" else " (scaled)")
    host_keys = ", ".join(f"`{k} = {v}`" for k, v in HOST_SETTINGS)
    lines = [
        f"# Write buffer: {title}", "",
        "<!-- Written by scripts/ssdvp_sweep/experiments/write_buffer_report.py from the runs it quotes: edit the "
        "script, not this page. -->", "",
        "The Open-Channel SSD study ([ocssd](../references.md#ocssd)) measures fio with 2 to 72 "
        "threads against pblk's ring write buffer of 32 MB and more on a CNEX Westlake drive, with pblk, the "
        "Linux host FTL, on a 72-core Xeon E7-8870 server. This page runs it in two settings: **pblk on the "
        "host**, the paper's (the project's FTL with pblk's ring run by host threads on 72 modelled host CPUs over "
        "an Open-Channel device, docs/host-ftl.md), and **the same technique in a device FTL** (the ring in the "
        "drive's firmware, `ftl.write_buffer = ring`, docs/write-buffer.md).", "",
        "## Setup", "",
        "* **Device**: `platforms/ocssd.toml`: 8 channels x 16 PUs, 16 KiB pages, 4 planes, 280 MB/s per channel, "
        "MLC; 64 of the paper's 1067 blocks per PU (128 GiB). The full 1067-block device (2.2 TB) needs 4.3 GB for "
        "its page map and reverse map, beyond the FTL's 32-bit map in either setting: `ssdvp` refuses it naming "
        "`dram.size_mib` (device FTL) or `host.ftl.memory_mib` (host FTL, 3 GiB at most). Nothing here depends on "
        "the block count: no run reaches garbage collection." + capacity_note(results, scale),
        "* **Host, pblk on the host**: " + host_keys + ". The 72 CPUs are the E7-8870's generation (Westmere-EX, "
        "2.4 GHz, 2011): the FTL's CPU time is its ISS-measured instructions at that clock and IPC 1, a lock "
        "handed across sockets costs 200 ns (docs/host-ftl.md). A user's write completes once copied into the "
        "ring; a writer that finds it full retries, yielding its CPU (pblk's io_schedule() and retry).",
        "* **Host, device FTL**: each fio job a thread on its own CPU and NVMe queue (host.cpus); the ring and its "
        "writers are the drive's firmware.",
        f"* **State**: the 8 GiB the threads address (the first {PRECOND_FILL:.2%} of the drive) written "
        "sequentially through the ring before each run (`precondition.fill`; on the host through the host FTL in "
        "simulated time, `precondition.mode = timed`): reads find mapped data, and the ring holds the last "
        "ring-full of it, as after fio's write of its file; writes land on free blocks (a new pblk instance).",
        "* **Workloads** (`ftl.write_buffer = ring`, `ftl.write_buffer_mib` = the ring size): " +
        "; ".join(f"{p}: `{workload(p, 1, scale).replace(',numjobs=1,', ',numjobs=T,').rsplit('io=', 1)[0]}io=N/T`"
                  for p in SPECS if grid(p, scale, True)) +
        f". The writes move {WRITE_MIB} MiB per run, four times the largest ring.", "",
        "```",
        f"scripts/reproduce.py --scale {scale} --only write-buffer                    # runs, checks, this page",
        f"scripts/write_buffer_experiment.py --scale {scale} --report docs/results    # the same",
        "```", "",
        f"Written on {date.today().isoformat()} from the {len(results)} runs of the store (ssdvp build "
        f"`{any_run.get('build', '?')}`); simulated figures do not depend on the machine.", "",
        "## pblk on the host (the paper's setting)", ""] + host_lines
    if scale == "full":
        lines += ["", "### Findings: pblk on the host", ""] + findings_rows(setting_findings(results, True)) + [
                  "", "### Why", ""] + host_why(results, scale)
    lines += ["", "## The same technique in a device FTL", ""] + dev_lines
    if scale == "full":
        lines += ["", "### Findings: the device FTL", ""] + findings_rows(setting_findings(results, False)) + [
                  "", "### Why", ""] + why(results, scale) + [
                  "", "## What changes between the two", ""] + comparison(results)
    else:
        lines += ["", "## Findings", ""] + findings_rows(findings) + ["", "## Why (pblk on the host)", ""] + \
            host_why(results, scale) + ["", "## Why (device FTL)", ""] + why(results, scale)
    lines += ["", "## Checks (the test suite's, `ctest -R write-buffer`)", ""] + checks_rows(check_figures(results)) + [
        "", checks_verdict(errors), ""]
    page = out / f"{pre}.md"
    page.write_text("\n".join(lines))
    return [page] + host_files + dev_files
