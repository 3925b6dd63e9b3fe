"""MT-FTL's task migration (issue 14; docs/references.md#mtftl): 16 host threads of the paper's
8 I/O:CPU types (90:10 ... 0:100, two each) on 4 host CPUs, 4 queues and 4 firmware cores with a
write-buffer part each, writing 1 to 10 random 4 KiB pages at QD 1 in their I/O phases; the OS
balancer evens out CPU load only; MT-FTL's greedy migration (host.migration) moves, every
host.migration_rounds balancer rounds, the most-inserting thread of the most-inserted CPU to the
least-inserted one.  The threads' CPU phases share the host CPUs with the host I/O stack's work.

Device: platforms/default.toml (MLC; the SLC variant nand.cell = slc in the full scale), its
logical space written once (precondition.fill), ftl.write_buffer = ring of one stripe per core.
Parts (tags PART/.../MODE, MODE none|greedy):
  host       MODE: the paper's setting, MT-FTL on the host (platforms/mtftl-femu.toml: 4 CPUs at
             3.4 GHz, a 1,024-entry ring and write-back thread per CPU, the paper's 8 GiB FEMU
             Open-Channel device, fresh), cycles of HOST_CYCLE_MS and the paper's 30,000 rounds
             scaled with them (full: the paper's 3 s and 30,000 exactly);
  migration  DEVICE/MODE: the same technique in a device FTL: without and with migration (full: mlc
             and slc; scaled: mlc);
  period     ROUNDS/greedy: the migration period in balancer rounds (full only);
  cores      N/MODE: 1, 2 and 4 firmware cores (full only; 4 CPUs and queues throughout);
  wbcost     INSTR/SUBMIT/MODE: a what-if in the paper's setting (full only; WB_CYCLE_MS cycles and
             WB_DURATION_MS, short enough that the fresh device sees no GC): the write-back's CPU
             per programmed sector (host.ftl.writeback_sector_instructions, WB_COSTS: what pblk and
             FEMU would add; no published figure) and a write's submission (host.stack.submit_ns,
             WB_SUBMIT_NS), to show which costs would let migration raise the bandwidth.
Time is scaled from the paper's 3 s cycles and 600 s: CYCLE_MS cycles, DURATION_MS of
simulated time, and the paper's 30,000 balancer rounds between migrations scaled with the
cycle (rounds(scale): 30,000 x CYCLE_MS / 3,000), swept by ROUND_FACTORS.
Checks (scaled), in the paper's setting and in the device FTL: without migration the writes
concentrate (the most-inserted ring or core takes more than 1.3x the mean) and migration evens
them out (smaller max/mean); in the device FTL the CPU work done stays within 5 %.  The bandwidth is a finding, not a check: see the report for why it differs.
Leaves out the report (mtftl_report.py).
"""
from ..runspec import RunSpec
from . import Experiment, claim, finding, integrity_problem, num, register, run_errors

PLATFORM = "default"
TYPES = "90:10,80:20,70:30,60:40,50:50,40:60,20:80,0:100"
THREADS = 16
CORES = 4
CYCLE_MS = {"full": 300.0, "scaled": 120.0}
DURATION_MS = {"full": 6000.0, "scaled": 1200.0}
ROUND_FACTORS = {"full": [0.2, 0.5, 1.0, 2.0, 6.0], "scaled": []}
PAPER_ROUNDS, PAPER_CYCLE_MS = 30000, 3000.0
DEVICES = {"full": ["mlc", "slc"], "scaled": ["mlc"]}
CORE_COUNTS = {"full": [1, 2, 4], "scaled": []}
MODES = ["none", "greedy"]
PARTS = ["host", "migration", "period", "cores", "wbcost"]
HOST_PLATFORM = "mtftl-femu"
HOST_CYCLE_MS = {"full": 3000.0, "scaled": 120.0}
HOST_DURATION_MS = {"full": 60000.0, "scaled": 1200.0}
WB_COSTS = {"full": [0, 2000, 4000, 8000, 16000], "scaled": []}   # chosen: 0 and powers of two
WB_SUBMIT_NS = [2000, 20000]   # host.stack.submit_ns's default, and ten times it (chosen)
WB_CYCLE_MS, WB_DURATION_MS = 120.0, 1200.0
CHECKED = ["host", "migration"]
WORKLOAD = f"fio:rw=randwrite,bsrange=4k-40k,iodepth=1,numjobs={THREADS},io=100000000"


def rounds(scale, factor=1.0):
    """The paper's balancer rounds between migrations, scaled with the cycle."""
    return int(round(PAPER_ROUNDS * CYCLE_MS[scale] / PAPER_CYCLE_MS * factor))


PERIODS = {s: [rounds(s, f) for f in fs] for s, fs in ROUND_FACTORS.items()}


def spec(scale, tag, mode, cores=CORES, period=None, device="mlc"):
    settings = [("host.cpus", 4), ("host.queues", 4), ("firmware.cores", cores),
                ("ftl.write_buffer", "ring"), ("ftl.ring.stripes", 1),
                ("host.cpu.types", TYPES), ("host.cpu.cycle_ms", CYCLE_MS[scale]),
                ("host.migration", mode), ("host.migration_rounds", period or rounds(scale)),
                ("sim.max_sim_ms", DURATION_MS[scale]),
                ("precondition.fill", 1.0), ("precondition.overwrite", 0.0)]
    if device == "slc":
        settings.append(("nand.cell", "slc"))
    return RunSpec(PLATFORM, WORKLOAD, [(k, v, "MT-FTL study") for k, v in settings],
                   ("host.migration", "host.migration_rounds", "firmware.cores", "nand.cell"), 0, tag)


def host_spec(scale, mode):
    cycle = HOST_CYCLE_MS[scale]
    settings = [("host.cpu.types", TYPES), ("host.cpu.cycle_ms", cycle), ("host.migration", mode),
                ("host.migration_rounds", int(round(PAPER_ROUNDS * cycle / PAPER_CYCLE_MS))),
                ("sim.max_sim_ms", HOST_DURATION_MS[scale])]
    return RunSpec(HOST_PLATFORM, WORKLOAD, [(k, v, "MT-FTL study, the paper's setting") for k, v in settings],
                   ("host.migration",), 0, f"host/{mode}")


def wb_spec(instr, submit, mode):
    settings = [("host.cpu.types", TYPES), ("host.cpu.cycle_ms", WB_CYCLE_MS), ("host.migration", mode),
                ("host.migration_rounds", int(round(PAPER_ROUNDS * WB_CYCLE_MS / PAPER_CYCLE_MS))),
                ("sim.max_sim_ms", WB_DURATION_MS), ("host.ftl.writeback_sector_instructions", instr),
                ("host.stack.submit_ns", submit)]
    return RunSpec(HOST_PLATFORM, WORKLOAD, [(k, v, "MT-FTL study, what-if") for k, v in settings],
                   ("host.migration", "host.ftl.writeback_sector_instructions", "host.stack.submit_ns"), 0,
                   f"wbcost/{instr}/{submit}/{mode}")


def ring_inserts(row):
    """Sectors each CPU's ring took (the host FTL's)."""
    out, k = [], 0
    while row is not None and f"host_ftl.ring.{k}.inserted_sectors" in row:
        out.append(num(row, f"host_ftl.ring.{k}.inserted_sectors"))
        k += 1
    if row is not None and not out:
        num(row, "host_ftl.ring.0.inserted_sectors")   # no ring's figure: fails naming the key
    return out


def ring_imbalance(row):
    v = ring_inserts(row)
    mean = sum(v) / len(v) if v else 0
    return max(v) / mean if mean else float("nan")


def runs(scale, parts):
    out = []
    if "host" in parts:
        out += [host_spec(scale, m) for m in MODES]
    if "migration" in parts:
        out += [spec(scale, f"migration/{d}/{m}", m, device=d) for d in DEVICES[scale] for m in MODES]
    if "period" in parts:
        out += [spec(scale, f"period/{p}/greedy", "greedy", period=p) for p in PERIODS[scale]]
    if "cores" in parts:
        out += [spec(scale, f"cores/{n}/{m}", m, cores=n) for n in CORE_COUNTS[scale] for m in MODES]
    if "wbcost" in parts:
        out += [wb_spec(i, s, m) for i in WB_COSTS[scale] for s in WB_SUBMIT_NS for m in MODES]
    return out


def scale_of(results):
    return "full" if any(t.startswith("period/") for t in results) else "scaled"


def inserts(row, cores=CORES):
    return [num(row, f"firmware.cores.{k}.buffer_inserted_sectors") for k in range(cores)]


def imbalance(row, cores=CORES):
    """The most-inserted core's insertions over the mean (1: even)."""
    v = inserts(row, cores)
    mean = sum(v) / len(v) if v else 0
    return max(v) / mean if mean else float("nan")   # no insertions: no balance to measure


def mbps(row):
    return num(row, "ops.write.mbps")


def work(row):
    return num(row, "host_cpu.cpu_work_s")


def unusable(results, parts):
    return run_errors(results, [r.tag for r in runs(scale_of(results), parts)], integrity_problem)


def change(after, before):
    """after / before - 1; NaN when before is 0 (no change can be measured from nothing), which
    fails every comparison a check or finding makes on it."""
    return after / before - 1 if before else float("nan")


def check_figures(results):
    none, greedy = results["migration/mlc/none"], results["migration/mlc/greedy"]

    def concentrate():
        return imbalance(none) > 1.3, f"max/mean {imbalance(none):.2f}"

    def evened():
        return imbalance(greedy) < imbalance(none), f"{imbalance(none):.2f} -> {imbalance(greedy):.2f}"

    def cpu_work():
        dw = change(work(greedy), work(none))
        return abs(dw) < 0.05, f"{work(none):.3f} -> {work(greedy):.3f} CPU-s ({dw:+.1%})"
    hnone, hgreedy = results["host/none"], results["host/greedy"]

    def host_concentrate():
        return ring_imbalance(hnone) > 1.3, f"max/mean {ring_imbalance(hnone):.2f}"

    def host_evened():
        return (ring_imbalance(hgreedy) < ring_imbalance(hnone),
                f"{ring_imbalance(hnone):.2f} -> {ring_imbalance(hgreedy):.2f}")
    return [
        claim("the paper's setting: without migration the writes concentrate, the most-inserted ring takes more "
              "than 1.3x the mean", host_concentrate),
        claim("the paper's setting: greedy migration evens the rings' insertions out (a smaller max/mean)",
              host_evened),
        claim("without migration the writes concentrate: the most-inserted core takes more than 1.3x the mean",
              concentrate),
        claim("greedy migration evens the cores' insertions out (a smaller max/mean)", evened),
        claim("the CPU work done stays within 5 % (the paper: about -1 %)", cpu_work),
    ]


def device_findings(none, greedy, d):
    def bandwidth():
        bw = change(mbps(greedy), mbps(none))
        dies = num(none, "utilisation.dies.mean")
        return (f"{mbps(none):.1f} -> {mbps(greedy):.1f} MB/s ({bw:+.1%}); dies {dies:.0%} busy without "
                f"migration; insertions max/mean {imbalance(none):.2f} -> {imbalance(greedy):.2f}", bw > 0.2)

    def cpu_work():
        dw = change(work(greedy), work(none))
        return f"{dw:+.1%}", abs(dw) < 0.05
    return [finding(f"migration raises bandwidth by 57 % ({d.upper()})", bandwidth),
            finding(f"CPU work about -1 % ({d.upper()})", cpu_work)]


def host_findings(none, greedy):
    def bandwidth():
        bw = change(mbps(greedy), mbps(none))
        return (f"{mbps(none):.1f} -> {mbps(greedy):.1f} MB/s ({bw:+.1%}); rings' insertions max/mean "
                f"{ring_imbalance(none):.2f} -> {ring_imbalance(greedy):.2f}", bw > 0.2)

    def cpu_work():
        dw = change(work(greedy), work(none))
        return f"{dw:+.1%}", abs(dw) < 0.05
    return [finding("migration raises bandwidth by 57 % (the paper's setting: MT-FTL on the host)", bandwidth),
            finding("CPU work about -1 % (the paper's setting)", cpu_work)]


def findings(results):
    out = []
    if "host/none" in results and "host/greedy" in results:
        out += host_findings(results["host/none"], results["host/greedy"])
    for d in DEVICES[scale_of(results)]:
        out += device_findings(results[f"migration/{d}/none"], results[f"migration/{d}/greedy"], d)
    return out


@register
class Mtftl(Experiment):
    name = "mtftl"
    title = "MT-FTL task migration between CPUs with per-core write buffers"
    parts = PARTS
    checked = CHECKED
    schemes = MODES

    def runs(self, scale, parts=None):
        return runs(scale, parts or PARTS)

    def unusable(self, results, parts):
        return unusable(results, parts)

    def claims(self, results):
        return check_figures(results)

    def paper_findings(self, results):
        return findings(results)

    def report(self, results, scale, report_dir, findings):
        from .mtftl_report import write_report
        return write_report(results, scale, report_dir, findings)
