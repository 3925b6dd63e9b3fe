"""The Open-Channel SSD write-buffer / thread study (issue 13; docs/references.md#ocssd):
fio-like threads (QD 1 each, psync) against pblk's ring write buffer of 32 ... 256 MiB on
platforms/ocssd.toml (8 channels x 16 PUs, 16 KiB pages, 4 planes, 280 MB/s, MLC).

Device: platforms/ocssd.toml (64 of the paper's 1067 blocks per PU: 128 GiB, see below), its
first 8 GiB (PRECOND_FILL) written sequentially through the ring before each run (reads need
mapped data, and the ring then holds the last ring-full of it, as after fio's write of its
file; writes land on a fresh drive, as on a new pblk instance), ftl.write_buffer = ring of
BUFFERS MiB.
Parts (tags PART/THREADS/BUFFER):
  randread   `fio:rw=randread,bs=4k,size=8g,numjobs=T,iodepth=1`: each thread QD 1;
  randwrite  the same with rw=randwrite;
  seqwrite   rw=write: each thread its own sequential stream (fio: job j starts at j x size / T);
  mixed      rw=randrw,rwmixread=50 over 1 GiB at 18 and 72 threads: reads of data still in the
             ring (the paper's explanation of read throughput rising with the buffer: buffer hits).
Threads THREADS, buffers BUFFERS (MiB); the writes move WRITE_MIB per run (four times the largest
buffer, so that it fills), the reads READS requests.
Checks (scaled: randread at 2, 18, 54, 72 threads with 32 MiB, mixed at 18 threads with 32 and
256 MiB): read throughput grows from 2 to 18 threads (more than 5x), and 54 -> 72 threads gains
less than half of what linear scaling would (+33 %); the ring's read-hit ratio at 256 MiB is
more than twice that at 32 MiB.
Leaves out the report (write_buffer_report.py) and the full 1067-block device: its page map
and reverse map need 4.3 GB of controller DRAM, beyond the firmware's 32-bit window (the scale
issue); the run is refused with the config error naming dram.size_mib.
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
PARTS = ["randread", "randwrite", "seqwrite", "mixed"]
CHECKED = ["randread", "mixed"]


def workload(part, threads, scale):
    if part == "randread":
        n = READS[scale]
    elif part == "mixed":
        n = MIXED_REQUESTS[scale]
    else:
        n = WRITE_MIB * 256
    return f"{SPECS[part]},numjobs={threads},iodepth=1,io={max(1, n // threads)}"


def spec(part, threads, mib, scale):
    settings = [("ftl.write_buffer", "ring"), ("ftl.write_buffer_mib", float(mib)),
                ("precondition.fill", PRECOND_FILL), ("precondition.overwrite", 0.0)]
    return RunSpec(PLATFORM, workload(part, threads, scale), [(k, v, "write-buffer study") for k, v in settings],
                   ("ftl.write_buffer_mib",), 0, f"{part}/{threads}/{mib}")


def grid(part, scale):
    if part == "mixed":
        return [(t, b) for t in MIXED_THREADS[scale] for b in MIXED_BUFFERS[scale]]
    if scale == "scaled" and part != "randread":
        return []
    return [(t, b) for t in THREADS[scale] for b in BUFFERS[scale]]


def runs(scale, parts):
    return [spec(p, t, b, scale) for p in parts for t, b in grid(p, scale)]


def mbps(row, op):
    return num(row, f"ops.{op}.mbps")


def scale_of(results):
    return "full" if any(t.startswith("randwrite/") for t in results) else "scaled"


def unusable(results, parts):
    scale = scale_of(results)

    return run_errors(results, [r.tag for r in runs(scale, parts)], integrity_problem)


def check_figures(results):
    """The suite's claims as (claim, holds, figures)."""
    scale = scale_of(results)
    b = BUFFERS[scale][0]

    def rd(t):
        return mbps(results[f"randread/{t}/{b}"], "read")
    t_mixed = MIXED_THREADS[scale][0]

    def hit(mib):
        return num(results[f"mixed/{t_mixed}/{mib}"], "write_buffer.read_hit_ratio")
    lo, hi = MIXED_BUFFERS[scale][0], MIXED_BUFFERS[scale][-1]
    return [
        claim(f"random-read throughput grows with threads: 18 threads more than 5x 2 threads ({b} MiB)",
              lambda: (rd(18) > 5 * rd(2), f"{rd(2):.0f} -> {rd(18):.0f} MB/s")),
        claim("54 -> 72 threads gains less than half of linear scaling (+33 %)",
              lambda: (rd(72) < rd(54) * (1 + 1 / 6),
                       f"{rd(54):.0f} -> {rd(72):.0f} MB/s ({rd(72) / rd(54) - 1:+.1%})")),
        claim(f"buffer read hits grow with the buffer: {hi} MiB more than twice {lo} MiB ({t_mixed} threads, mixed)",
              lambda: (hit(hi) > 2 * hit(lo), f"{hit(lo):.2%} -> {hit(hi):.2%}")),
    ]


def findings(results):
    scale = scale_of(results)
    if scale != "full":
        return [Finding(c, f, h) for c, h, f in check_figures(results)]
    bufs, ts = BUFFERS[scale], THREADS[scale]

    def w(part, t, b):
        return mbps(results[f"{part}/{t}/{b}"], "write")

    def rd(t, b):
        return mbps(results[f"randread/{t}/{b}"], "read")
    def flattens():
        return (f"{rd(2, 32):.0f} MB/s at 2, {rd(54, 32):.0f} at 54, {rd(72, 32):.0f} at 72 threads "
                f"({rd(72, 32) / rd(54, 32) - 1:+.1%})", rd(72, 32) < rd(54, 32) * (1 + 1 / 6))

    def rises_with_buffer():
        read_by_buf = [rd(72, b) for b in bufs]
        hits = [num(results[f"mixed/72/{b}"], "write_buffer.read_hit_ratio") for b in bufs]
        mixed_read = [mbps(results[f"mixed/72/{b}"], "read") for b in bufs]
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
        return ("random write at 32 MiB: " + ", ".join(f"{t}: {x:.0f}" for t, x in zip(ts, rw32)) +
                f" MB/s (peak at {peak_t} threads)", 8 <= peak_t <= 36 and rw32[-1] < 0.9 * max(rw32))
    return [
        finding("read throughput grows with threads, then flattens (54 -> 72 threads: about no gain)", flattens),
        finding("read throughput rises with the buffer size (more buffer hits)", rises_with_buffer),
        finding("with >= 64 MB buffers write throughput gains little beyond 4 threads", little_gain),
        finding("with 32 MB, random writes scale to about 18 threads, then fall as the buffer stays full",
                scale_then_fall),
    ]


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
