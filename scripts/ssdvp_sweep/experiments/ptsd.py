"""The PTSD paper's experiment (docs/references.md#ptsd) as runs of the sweep engine,
the test suite's checks on them and the paper's findings next to this run's figures.

Board of the paper (platforms/ptsd-board.toml: 8 channels x 4 ways, SLC pages of 4 KiB, flash
read 120 us / program 480 us), 20% over-provisioning, mapping cache = 20% of the whole map,
queue depth 128, an empty drive; random writes of twice the logical space, then:
  paper: random reads;   mixed: a 50/50 random read/write mix (reads while the buffer flushes);
  adapt-read / adapt-write: a 90/10 / 10/90 mix, the fixed 50:50 split (writeopt) against the
  adaptive split under the same scheduler (adaptive with ftl.sched=write-stop).
Scales: full = 16 GiB logical (1280 blocks per plane), 32 GiB written, 1 Mi requests after;
scaled = 4 GiB logical (320 blocks), 8 GiB written, 400 Ki requests: the same ratios.
Runs are tagged PART/SCHEME. Leaves out the report (ptsd_report.py).
"""
from ..runspec import RunSpec
from . import Experiment, Finding, count, integrity_problem, register, run_errors

SCHEMES = ["opt", "dftl", "part", "part-sched", "writeopt", "adaptive"]
PARTS = {"paper": SCHEMES, "mixed": SCHEMES, "adapt-read": ["writeopt", "adaptive"],
         "adapt-write": ["writeopt", "adaptive"]}
CHECKED = ["paper", "adapt-read", "adapt-write"]       # the parts the suite's checks compare
READ_MIX = {"mixed": 50, "adapt-read": 90, "adapt-write": 10}
SCALE = {
    #         blocks_per_plane, host writes, requests after
    "full": (1280, 2 * 4 * 1024 * 1024, 1024 * 1024),
    "scaled": (320, 2 * 1024 * 1024, 400 * 1024),
}
FLASH_READ_US = 120


def workload(scale, part):
    _, writes, after = SCALE[scale]
    w = f"fio:rw=randwrite,bs=4k,iodepth=128,io={writes}"
    if part == "paper":
        return f"{w};fio:rw=randread,bs=4k,iodepth=128,io={after}"
    return f"{w};fio:rw=randrw,rwmixread={READ_MIX[part]},bs=4k,iodepth=128,io={after}"


def run_spec(scale, part, scheme):
    settings = [("nand.blocks_per_plane", SCALE[scale][0]), ("ftl.mapping", scheme), ("ftl.op", 0.2),
                ("ftl.cmt_ratio", 0.2), ("precondition.fill", 0), ("precondition.overwrite", 0)]
    if part.startswith("adapt") and scheme == "adaptive":
        settings.append(("ftl.sched", "write-stop"))
    return RunSpec("ptsd-board", workload(scale, part), [(k, v, f"ptsd {part}") for k, v in settings],
                   ("ftl.mapping",), 0, f"{part}/{scheme}")


def throughput(r):
    return r["host_requests"] / r["sim_time_s"]


def read_wait(r, key):
    """Reads that waited for `key` (ops.read.waited_for is reported only when some read waited)."""
    return int(count(r, f"ops.read.waited_for.{key}.requests"))


def lat(r, p):
    return r[f"ops.read.latency_us.{p}"]


def by_part(results, part):
    return {tag.split("/", 1)[1]: r for tag, r in results.items() if tag.split("/", 1)[0] == part}


def unusable(results, parts):
    """Errors for every run of these parts that is missing or is not a measurement (integrity
    mismatches or unexplained errors, or a run without those figures)."""
    return run_errors(results, expected_tags(parts), integrity_problem)


def expected_tags(parts):
    return [f"{part}/{scheme}" for part in parts for scheme in PARTS[part]]


@register
class Ptsd(Experiment):
    name = "ptsd"
    title = "PTSD: partitioned mapping cache, read-priority scheduling, entry-level dirty cache"
    parts = list(PARTS)
    checked = CHECKED
    schemes = SCHEMES

    def runs(self, scale, parts=None):
        return [run_spec(scale, part, scheme) for part in parts or PARTS for scheme in PARTS[part]]

    def expected_tags(self, parts):
        return expected_tags(parts)

    def unusable(self, results, parts):
        return unusable(results, parts)

    def checks(self, results, parts=None):
        """The suite's assertions; each compares schemes on measured figures, so each can fail.
        Every run of the checked parts must be there and be a measurement, or it is named."""
        parts = parts or CHECKED
        errors = unusable(results, parts)
        if errors:
            return errors
        if "paper" in parts:
            runs = by_part(results, "paper")
            for s in SCHEMES[2:]:
                n = read_wait(runs[s], "map_write")
                if n:
                    errors.append(f"{s}: {n} host reads waited for a translation page write (a read must never cause one)")
            if read_wait(runs["dftl"], "map_write") == 0:
                errors.append("dftl: no host read waited for a translation page write (the check would not see one)")
            p999 = {s: lat(runs[s], "p99.9") for s in SCHEMES}
            if not p999["part-sched"] < p999["dftl"]:
                errors.append(f"p99.9 read latency: part-sched {p999['part-sched']:.0f} us is not below dftl "
                              f"{p999['dftl']:.0f} us")
            tput = {s: throughput(runs[s]) for s in SCHEMES}
            if not tput["writeopt"] > tput["part-sched"]:
                errors.append(f"throughput: writeopt {tput['writeopt']:.0f}/s is not above part-sched "
                              f"{tput['part-sched']:.0f}/s")
            best = max(tput, key=tput.get)
            if best != "opt":
                errors.append(f"throughput: {best} ({tput[best]:.0f}/s) beats opt ({tput['opt']:.0f}/s)")
        for part in ("adapt-read", "adapt-write"):
            if part in parts:
                runs = by_part(results, part)
                a, w = throughput(runs["adaptive"]), throughput(runs["writeopt"])
                if not a > w:
                    errors.append(f"{part}: adaptive split {a:.0f}/s is not above the fixed 50:50 {w:.0f}/s")
        return errors

    def findings(self, results):
        out = []
        paper, mixed = by_part(results, "paper"), by_part(results, "mixed")
        if set(SCHEMES) <= set(paper):
            p, t = paper, {s: throughput(paper[s]) for s in SCHEMES}
            shift = mixed if set(SCHEMES) <= set(mixed) else p
            where = "mixed" if shift is mixed else "paper"
            out.append(Finding(
                "PART moves the read CDF left of DFTL (p50)",
                f"p50 part {lat(shift['part'], 'p50'):,.0f} us vs dftl {lat(shift['dftl'], 'p50'):,.0f} us ({where}); "
                f"reads waiting for a map write: part {read_wait(shift['part'], 'map_write')}, "
                f"dftl {read_wait(shift['dftl'], 'map_write'):,}",
                lat(shift["part"], "p50") < lat(shift["dftl"], "p50") and read_wait(shift["part"], "map_write") == 0))
            gap = lat(p["part"], "p90") - lat(p["opt"], "p90")
            out.append(Finding(
                "PART up to p90 is about OPT + one flash read (120 us)",
                f"p90 part {lat(p['part'], 'p90'):,.0f} us, opt {lat(p['opt'], 'p90'):,.0f} us: {gap:+,.0f} us",
                gap <= 2 * FLASH_READ_US))
            out.append(Finding(
                "PART-SCHED cuts the read tail (p99.9) below PART and DFTL",
                f"p99.9 part-sched {lat(p['part-sched'], 'p99.9'):,.0f} us, part {lat(p['part'], 'p99.9'):,.0f}, "
                f"dftl {lat(p['dftl'], 'p99.9'):,.0f}",
                lat(p["part-sched"], "p99.9") < min(lat(p["part"], "p99.9"), lat(p["dftl"], "p99.9"))))
            ratio = t["writeopt"] / t["part-sched"]
            out.append(Finding("WRITEOPT total throughput about 1.10x PART-SCHED (1.05-1.30x)",
                               f"{ratio:.2f}x", 1.05 <= ratio <= 1.30))
            out.append(Finding("OPT has the best throughput",
                               f"opt {t['opt']:,.0f}/s, best other {max(v for s, v in t.items() if s != 'opt'):,.0f}/s",
                               max(t, key=t.get) == "opt"))
            ratio = t["writeopt"] / t["dftl"]
            out.append(Finding("PTSD about 1.15x DFTL on random writes then reads (1.05-1.30x)",
                               f"writeopt {ratio:.2f}x dftl", 1.05 <= ratio <= 1.30))
        for part, mix in (("adapt-read", "90/10"), ("adapt-write", "10/90")):
            runs = by_part(results, part)
            if {"writeopt", "adaptive"} <= set(runs):
                gain = throughput(runs["adaptive"]) / throughput(runs["writeopt"]) - 1
                out.append(Finding(f"(future work) adaptive split beats the fixed 50:50, {mix} mix",
                                   f"{100 * gain:+.1f}% throughput", gain > 0))
        return out

    def report(self, results, scale, report_dir, findings):
        from .ptsd_report import write_report
        return write_report(results, scale, report_dir, findings)
