"""The Open-Channel SSD write-buffer / thread study (issue 13; docs/references.md#ocssd):
fio-like threads (QD 1 each, psync) against pblk's ring write buffer of 32 ... 256 MiB on
platforms/ocssd.toml (8 channels x 16 PUs, 16 KiB pages, 4 planes, 280 MB/s, MLC), in two
settings:
  host    the paper's: pblk on the host (host.ftl = pblk over device.interface = ocssd,
          docs/host-ftl.md): HOST_SETTINGS, 72 CPUs in 4 sockets of 18 (the Xeon E7-8870 server),
          one ring and one write-back thread on host CPUs under one spin lock, user writes
          acknowledged once copied into the ring, writers retrying (yielding) while it is full;
          the device is the Open-Channel SSD of the same geometry on PCIe Gen3 x8 (the paper's
          table); the fill written through the host FTL in simulated time (precondition.mode =
          timed);
  device  the same technique in a device FTL: ftl.write_buffer = ring in the drive's firmware,
          the host's threads only submitting (tags without the "host/" prefix).
Device: platforms/ocssd.toml (64 of the paper's 1067 blocks per PU: 128 GiB, see below), its
first 8 GiB (PRECOND_FILL) written sequentially through the ring before each run (reads need
mapped data, and the ring then holds the last ring-full of it, as after fio's write of its
file; writes land on free blocks, as on a new pblk instance), a ring of BUFFERS MiB.
Parts (tags [host/]WORKLOAD/THREADS/BUFFER; part "host" runs the four workloads in the host
setting, the others in the device setting):
  randread   `fio:rw=randread,bs=4k,size=8g,numjobs=T,iodepth=1`: each thread QD 1;
  randwrite  the same with rw=randwrite;
  seqwrite   rw=write: each thread its own sequential stream (fio: job j starts at j x size / T);
  mixed      rw=randrw,rwmixread=50 over 1 GiB at 18 and 72 threads: reads of data still in the
             ring (the paper's explanation of read throughput rising with the buffer: buffer hits);
  wbcost     host setting, full only: random write with the 32 MiB ring at every thread count
             with the what-if host.ftl.writeback_sector_instructions (WB_COSTS: what pblk's
             write-back adds per sector; no published figure), tags wbcost/INSTR/THREADS/32: which
             cost would make writes fall with threads;
  capacity   host setting, full only: random write with the 32 MiB ring at 36 threads on the
             largest device the host FTL's map addresses (CAPACITY_BLOCKS blocks per PU of the
             paper's 1067, the same 8 GiB filled), tag capacity/BLOCKS/36/32: the figures the
             64-block device gives, or not.
Threads THREADS, buffers BUFFERS (MiB); the writes move WRITE_MIB per run (four times the largest
buffer, so that it fills), the reads READS requests.
Checks (scaled: randread at 2, 18, 54, 72 threads with 32 MiB, mixed at 18 threads with 32 and
256 MiB, in both settings; host random write at 18 and 36 threads with 32 MiB): read throughput
grows from 2 to 18 threads (more than 5x), and 54 -> 72 threads gains less than half of what
linear scaling would (+33 %); the ring's read-hit ratio at 256 MiB is more than twice that at
32 MiB; on the host, the 32 MiB ring is full at 36 threads (writers wait for room) and its lock
costs each written sector more CPU time at 36 threads than at 18.
Leaves out the report (write_buffer_report.py) and the full 1067-block device: its page map
and reverse map need 4.3 GB, beyond the FTL's 32-bit map (device firmware: dram.size_mib; host
FTL: host.ftl.memory_mib, 3 GiB at most); the run is refused with the config error naming it.
"""
from ..runspec import RunSpec
from . import Experiment, Finding, claim, finding, integrity_problem, num, register, run_errors

PLATFORM = "ocssd"
THREADS = {"full": [2, 4, 8, 18, 36, 54, 72], "scaled": [2, 18, 54, 72]}
BUFFERS = {"full": [32, 64, 128, 256], "scaled": [32]}
MIXED_THREADS = {"full": [18, 72], "scaled": [18]}
MIXED_BUFFERS = {"full": [32, 64, 128, 256], "scaled": [32, 256]}
READS = {"full": 80000, "scaled": 40000}
WRITE_MIB = 1024
MIXED_REQUESTS = {"full": 270000, "scaled": 270000}   # half of them writes: 527 MiB, twice the largest ring
PRECOND_FILL = 0.0625         # the 8 GiB the threads address (of 128 GiB), written last to first
SPECS = {"randread": "fio:rw=randread,bs=4k,size=8g",
         "randwrite": "fio:rw=randwrite,bs=4k,size=8g",
         "seqwrite": "fio:rw=write,bs=4k,size=8g",
         "mixed": "fio:rw=randrw,rwmixread=50,bs=4k,size=1g"}
WORKLOADS = ["randread", "randwrite", "seqwrite", "mixed"]
PARTS = ["host"] + WORKLOADS + ["wbcost", "capacity"]
CHECKED = ["host", "randread", "mixed"]
# The paper's host: 72 CPUs of the Xeon E7-8870 server in its four sockets of 18 (host.cpu.clock_mhz's
# default is that CPU's 2.4 GHz); 64 NVMe queues (the most host.queues takes: CPU c submits on queue
# c mod 64); the drive's PCIe Gen3 x8 (the paper's table: 7877 MB/s); pblk's write-back and GC
# kernel threads on the last CPU (chosen: Linux wakes a kernel thread on an idle CPU while there is
# one, and the last CPU is idle up to 71 threads).
HOST_SETTINGS = [("device.interface", "ocssd"), ("host.ftl", "pblk"), ("host.cpus", 72), ("host.cpu.sockets", 4),
                 ("host.queues", 64), ("host.link_mbps", 7877.0), ("host.ftl.writeback_cpu", 71),
                 ("host.ftl.gc_cpu", 71), ("precondition.mode", "timed")]
HOST_WRITES_SCALED = [18, 36]   # host random write with 32 MiB in the scaled checks
WB_COSTS = {"full": [2000, 4000, 8000], "scaled": []}   # chosen: powers of two, as the MT-FTL study's what-if
# The largest ocssd.toml device whose map, reverse map and ring fit host.ftl.memory_mib's 3 GiB (760
# blocks need 3,116 MiB), 1.4 TiB; its NOR holds the bad-block table of that many superblocks.
CAPACITY_BLOCKS = {"full": 720, "scaled": None}
PLATFORM_BLOCKS = 64   # platforms/ocssd.toml's blocks per PU
CAPACITY_SETTINGS = [("device.nor_kib", 2048), ("host.ftl.memory_mib", 3072)]


def workload(part, threads, scale):
    if part == "randread":
        n = READS[scale]
    elif part == "mixed":
        n = MIXED_REQUESTS[scale]
    else:
        n = WRITE_MIB * 256
    return f"{SPECS[part]},numjobs={threads},iodepth=1,io={max(1, n // threads)}"


def spec(part, threads, mib, scale, host=False, wb_instr=None, blocks=None):
    # the same 8 GiB (to the 6 digits run.json echoes)
    fill = round(PRECOND_FILL * PLATFORM_BLOCKS / blocks, 6) if blocks else PRECOND_FILL
    settings = [("ftl.write_buffer", "ring"), ("ftl.write_buffer_mib", float(mib)),
                ("precondition.fill", fill), ("precondition.overwrite", 0.0)]
    why, swept, tag = "write-buffer study", ("ftl.write_buffer_mib",), f"{part}/{threads}/{mib}"
    if host:
        settings += HOST_SETTINGS
        why, swept, tag = "write-buffer study, pblk on the host", ("host.ftl", "ftl.write_buffer_mib"), "host/" + tag
    if wb_instr is not None:
        settings.append(("host.ftl.writeback_sector_instructions", float(wb_instr)))
        why, swept = "write-buffer study, what-if", swept + ("host.ftl.writeback_sector_instructions",)
        tag = f"wbcost/{wb_instr}/{threads}/{mib}"
    if blocks:
        settings += [("nand.blocks_per_plane", blocks)] + CAPACITY_SETTINGS
        why, swept = "write-buffer study, the largest device", swept + ("nand.blocks_per_plane",)
        tag = f"capacity/{blocks}/{threads}/{mib}"
    return RunSpec(PLATFORM, workload(part, threads, scale), [(k, v, why) for k, v in settings], swept, 0, tag)


def grid(part, scale, host=False):
    """The (threads, MiB) points of a workload in a setting."""
    if part == "mixed":
        return [(t, b) for t in MIXED_THREADS[scale] for b in MIXED_BUFFERS[scale]]
    if scale == "scaled" and part != "randread":
        return [(t, BUFFERS[scale][0]) for t in HOST_WRITES_SCALED] if host and part == "randwrite" else []
    return [(t, b) for t in THREADS[scale] for b in BUFFERS[scale]]


def runs(scale, parts):
    out = []
    for p in parts:
        if p == "host":
            out += [spec(w, t, b, scale, host=True) for w in WORKLOADS for t, b in grid(w, scale, True)]
        elif p == "capacity":
            if CAPACITY_BLOCKS[scale]:
                out.append(spec("randwrite", 36, BUFFERS[scale][0], scale, True, blocks=CAPACITY_BLOCKS[scale]))
        elif p == "wbcost":
            out += [spec("randwrite", t, BUFFERS[scale][0], scale, True, c) for c in WB_COSTS[scale] for t in THREADS[scale]]
        else:
            out += [spec(p, t, b, scale) for t, b in grid(p, scale)]
    return out


def mbps(row, op):
    return num(row, f"ops.{op}.mbps")


def scale_of(results):
    """full where a run only the full grid has is there (4 threads, or a mix at 72)."""
    return "full" if any(t.split("/")[-2] == "4" or "mixed/72/" in t for t in results) else "scaled"


def unusable(results, parts):
    scale = scale_of(results)

    return run_errors(results, [r.tag for r in runs(scale, parts)], integrity_problem)


def setting_prefix(host):
    return "host/" if host else ""


def inserted(row):
    """Sectors the host FTL's ring took from user writes in the measured window."""
    return num(row, "host_ftl.ring.0.inserted_sectors")


def lock_spin_ns(row):
    """CPU time spun on the host FTL's lock per sector written, ns."""
    n = inserted(row)
    return num(row, "host_ftl.lock.spin_s") * 1e9 / n if n else float("nan")


def writeback_share(row):
    """The write-back thread's CPU time over the run's simulated time (one CPU's worth; its time
    includes draining the ring after the last write, so it can pass 1)."""
    sim = num(row, "sim_time_s")
    return num(row, "host_ftl.cpus.cpu_time_s_by_category.writeback") / sim if sim else float("nan")


def read_claims(results, scale, host):
    pre, b = setting_prefix(host), BUFFERS[scale][0]
    where = "pblk on the host" if host else "device FTL"

    def rd(t):
        return mbps(results[f"{pre}randread/{t}/{b}"], "read")
    t_mixed = MIXED_THREADS[scale][0]

    def hit(mib):
        return num(results[f"{pre}mixed/{t_mixed}/{mib}"], "write_buffer.read_hit_ratio")
    lo, hi = MIXED_BUFFERS[scale][0], MIXED_BUFFERS[scale][-1]
    return [
        claim(f"{where}: random-read throughput grows with threads: 18 threads more than 5x 2 threads ({b} MiB)",
              lambda: (rd(18) > 5 * rd(2), f"{rd(2):.0f} -> {rd(18):.0f} MB/s")),
        claim(f"{where}: 54 -> 72 threads gains less than half of linear scaling (+33 %)",
              lambda: (rd(72) < rd(54) * (1 + 1 / 6),
                       f"{rd(54):.0f} -> {rd(72):.0f} MB/s ({rd(72) / rd(54) - 1:+.1%})")),
        claim(f"{where}: buffer read hits grow with the buffer: {hi} MiB more than twice {lo} MiB "
              f"({t_mixed} threads, mixed)", lambda: (hit(hi) > 2 * hit(lo), f"{hit(lo):.2%} -> {hit(hi):.2%}")),
    ]


def host_write_claims(results, scale):
    b = BUFFERS[scale][0]
    t0, t1 = HOST_WRITES_SCALED

    def row(t):
        return results[f"host/randwrite/{t}/{b}"]
    return [
        # Full: at least one write in twenty waited for room (one blocked write is a ring that
        # filled once, not a full one), and more than with fewer writers.
        claim(f"pblk on the host: the {b} MiB ring is full at {t1} threads (writers wait for room: at least 5 % of "
              f"the writes, more than at {t0} threads)",
              lambda: (num(row(t1), "host_ftl.blocked_submissions") >= 0.05 * num(row(t1), "ops.write.requests")
                       and num(row(t1), "host_ftl.blocked_submissions") > num(row(t0), "host_ftl.blocked_submissions"),
                       f"{int(num(row(t1), 'host_ftl.blocked_submissions')):,} of "
                       f"{int(num(row(t1), 'ops.write.requests')):,} writes waited "
                       f"({int(num(row(t0), 'host_ftl.blocked_submissions')):,} at {t0} threads)")),
        claim(f"pblk on the host: its lock costs a written sector more CPU at {t1} threads than at {t0} ({b} MiB)",
              lambda: (lock_spin_ns(row(t1)) > lock_spin_ns(row(t0)),
                       f"{lock_spin_ns(row(t0)):,.0f} -> {lock_spin_ns(row(t1)):,.0f} ns spun per sector")),
    ]


def check_figures(results):
    """The suite's claims as (claim, holds, figures): the read claims in both settings, the
    host's write claims."""
    scale = scale_of(results)
    return read_claims(results, scale, True) + host_write_claims(results, scale) + read_claims(results, scale, False)


def setting_findings(results, host):
    """The paper's four findings in one setting (full scale)."""
    pre, bufs, ts = setting_prefix(host), BUFFERS["full"], THREADS["full"]

    def w(part, t, b):
        return mbps(results[f"{pre}{part}/{t}/{b}"], "write")

    def rd(t, b):
        return mbps(results[f"{pre}randread/{t}/{b}"], "read")

    def flattens():
        return (f"{rd(2, 32):.0f} MB/s at 2, {rd(54, 32):.0f} at 54, {rd(72, 32):.0f} at 72 threads "
                f"({rd(72, 32) / rd(54, 32) - 1:+.1%})", rd(72, 32) < rd(54, 32) * (1 + 1 / 6))

    def rises_with_buffer():
        read_by_buf = [rd(72, b) for b in bufs]
        hits = [num(results[f"{pre}mixed/72/{b}"], "write_buffer.read_hit_ratio") for b in bufs]
        mixed_read = [mbps(results[f"{pre}mixed/72/{b}"], "read") for b in bufs]
        return ("random reads of data on flash: " + " / ".join(f"{x:.0f}" for x in read_by_buf) +
                f" MB/s at {'/'.join(map(str, bufs))} MiB (72 threads); with writes beside them (mixed): hits " +
                " / ".join(f"{h:.1%}" for h in hits) + ", reads " + " / ".join(f"{x:.0f}" for x in mixed_read) +
                " MB/s", hits[-1] > 2 * hits[0] and mixed_read[-1] > mixed_read[0])

    def little_gain():
        gain_4_72 = max(w(p, 72, b) / w(p, 4, b) for p in ("randwrite", "seqwrite") for b in bufs if b >= 64)
        return (f"72 threads against 4: at most {gain_4_72:.2f}x (random and sequential, 64 ... 256 MiB)",
                gain_4_72 < 1.5)

    def scale_then_fall():
        rw32 = [w("randwrite", t, 32) for t in ts]
        peak_t = ts[rw32.index(max(rw32))]
        here = ("random write at 32 MiB: " + ", ".join(f"{t}: {x:.0f}" for t, x in zip(ts, rw32)) +
                f" MB/s (peak at {peak_t} threads)")
        if host:
            here += ("; lock spin per sector " + ", ".join(
                f"{t}: {lock_spin_ns(results[f'host/randwrite/{t}/32']) / 1e3:.1f}" for t in (18, 36, 72)) +
                " µs, write-back thread " + ", ".join(
                f"{t}: {writeback_share(results[f'host/randwrite/{t}/32']):.1%}" for t in (18, 72)) + " of its CPU")
        return here, 8 <= peak_t <= 36 and rw32[-1] < 0.9 * max(rw32)
    return [
        finding("read throughput grows with threads, then flattens (54 -> 72 threads: about no gain)", flattens),
        finding("read throughput rises with the buffer size (more buffer hits)", rises_with_buffer),
        finding("with >= 64 MB buffers write throughput gains little beyond 4 threads", little_gain),
        finding("with 32 MB, random writes scale to about 18 threads, then fall as the buffer stays full",
                scale_then_fall),
    ]


def findings(results):
    """The paper's findings: pblk on the host (its setting), then the device FTL's."""
    if scale_of(results) != "full":
        return [Finding(c, f, h) for c, h, f in check_figures(results)]
    return ([Finding("pblk on the host: " + f.paper, f.here, f.passed) for f in setting_findings(results, True)] +
            [Finding("device FTL: " + f.paper, f.here, f.passed) for f in setting_findings(results, False)])


@register
class WriteBuffer(Experiment):
    name = "write-buffer"
    title = "Write buffer and threads on an Open-Channel SSD (pblk's ring)"
    parts = PARTS
    checked = CHECKED
    schemes = [str(b) for b in BUFFERS["full"]]

    def runs(self, scale, parts=None):
        return runs(scale, parts or PARTS)

    def unusable(self, results, parts):
        return unusable(results, parts)

    def claims(self, results):
        return check_figures(results)

    def paper_findings(self, results):
        return findings(results)

    def report(self, results, scale, report_dir, findings):
        from .write_buffer_report import write_report
        return write_report(results, scale, report_dir, findings)
