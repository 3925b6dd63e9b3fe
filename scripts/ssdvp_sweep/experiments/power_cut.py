"""The power-cut campaign (issue 15, docs/reliability.md): cuts at random flash operations of a
workload of random writes, flushes and FUA writes with GC active, on every mapping scheme and
write-buffer kind; after each, the drive powers on, recovers and the host reads every sector
back against what was durable (`ssdvp run --power-cut random:SEED`, exit 4 if anything is lost).

Device: the test suite's small drive (4 channels x 2 ways, 2 planes, 64 blocks of 64 MLC pages:
224 MiB), filled and aged by the precondition, so GC runs from the first writes.
Parts (tags PART/BUFFER/K/SCHEME; K the cut's seed, also the workload's):
  mix       random 4-32 KiB writes at QD16, 10 % FUA, a flush every 64 writes;
  recovery  the same, and a second cut at a random operation of the recovery itself
            (--recovery-cut random:K), then a third power-on;
  trim      the mix with 5 % trims (the trim log: a trimmed sector reads zeros or its last data,
            never an older version);
  placement the trim mix with SLC/MLC placement (page map): pSLC cache + lapt, + slc-only,
            + combo (its unit map), and a mixed device (2 SLC dies of 8) + lapt; after recovery the drive writes on (--after-recovery: 20,000
            requests with reads, trims, flushes) and is read back again.
Cuts (6 schemes; 4 placements): full 600 + 204 + 204 + 96 = 1,104; scaled 12 + 6 + 6 + 4 = 28
(all in ctest).
Checks (every part): every cut's run completed and lost no durable sector (else ssdvp exits 4
and the run fails), every read-back covered the whole namespace, and some cuts landed while
programs or erases were in flight; with trims, recovery found trim-log records.
"""
from pathlib import Path

from ..runspec import RunSpec
from . import Experiment, checks_rows, claim, count, num, register, run_errors

SMALL = [("nand.channels", 4), ("nand.ways", 2), ("nand.planes", 2), ("nand.blocks_per_plane", 64),
         ("nand.mlc.pages_per_block", 64), ("dram.size_mib", 256)]
SCHEMES = ["opt", "dftl", "part", "part-sched", "writeopt", "adaptive"]
BUFFERS = ["slots", "ring"]
MIX = "fio:rw=randwrite,bsrange=4k-32k,iodepth=16,io=40000,fua_percent=10,fsync=64,seed={k}"
TRIM = MIX + ",trim_percent=5"
AFTER = "fio:rw=randrw,rwmixread=30,bsrange=4k-32k,iodepth=16,io=20000,trim_percent=5,fsync=64,seed={k}"
PSLC = [("nand.pslc.blocks_per_plane", 16)]
PLACEMENTS = {  # name: settings
    "pslc+lapt": PSLC + [("ftl.placement", "lapt")],
    "pslc+slc-only": PSLC + [("ftl.placement", "slc-only")],
    "pslc+combo": PSLC + [("ftl.placement", "combo")],
    "mixed+lapt": [("nand.slc_dies", 2), ("nand.slc.blocks_per_plane", 64), ("ftl.placement", "lapt")],
}
CUTS = {  # part: {scale: (buffers, seeds per scheme and buffer)}
    "mix": {"full": (BUFFERS, 50), "scaled": (BUFFERS, 1)},
    "recovery": {"full": (BUFFERS, 17), "scaled": (["slots"], 1)},
    "trim": {"full": (BUFFERS, 17), "scaled": (["slots"], 1)},
    "placement": {"full": (BUFFERS, 12), "scaled": (["slots"], 1)},
}
PARTS = ["mix", "recovery", "trim", "placement"]
CHECKED = PARTS


def spec(part, buf, k, scheme):
    if part == "placement":   # scheme: a placement's name
        settings = SMALL + PLACEMENTS[scheme] + [("ftl.write_buffer", buf)]
        varied = ("ftl.placement", "ftl.write_buffer")
    else:
        settings = SMALL + [("ftl.mapping", scheme), ("ftl.write_buffer", buf)]
        varied = ("ftl.mapping", "ftl.write_buffer")
    args = ("--power-cut", f"random:{k}")
    if part == "recovery":
        args += ("--recovery-cut", f"random:{k}")
    if part == "placement":
        args += ("--after-recovery", AFTER.format(k=k))
    workload = (TRIM if part in ("trim", "placement") else MIX).format(k=k)
    return RunSpec("", workload, [(key, v, "power-cut campaign") for key, v in settings],
                   varied, 0, f"{part}/{buf}/{k}/{scheme}", args)


def schemes_of(part):
    return list(PLACEMENTS) if part == "placement" else SCHEMES


def runs(scale, parts):
    out = []
    for part in parts:
        bufs, seeds = CUTS[part][scale]
        out += [spec(part, b, k, s) for b in bufs for k in range(1, seeds + 1) for s in schemes_of(part)]
    return out


def scale_of(results):
    return "full" if any(t.startswith("mix/") and int(t.split("/")[2]) > 1 for t in results) else "scaled"


def lost(row):
    return int(num(row, "recovery.check.lost"))


def in_part(results, part):
    return {t: r for t, r in results.items() if t.startswith(part + "/")}


def unusable(results, parts):
    scale = scale_of(results)
    errors = []
    for part in parts:
        errors += run_errors(results, [r.tag for r in runs(scale, [part])])
    return errors


def interrupted(row):
    return int(num(row, "power_cut.interrupted.count"))


def summary(rows):
    """cuts, sectors lost, cuts that lost data, cuts with an operation interrupted, mean and max
    time from power-on to ready (ms), mean plane reads of the scan."""
    rows = list(rows)
    ready = [num(r, "recovery.boot_to_ready_s") * 1e3 for r in rows]
    return {"cuts": len(rows), "lost": sum(lost(r) for r in rows), "cuts_lost": sum(lost(r) > 0 for r in rows),
            "interrupted": sum(interrupted(r) > 0 for r in rows),
            "ready_ms": sum(ready) / len(ready) if ready else 0.0, "ready_max_ms": max(ready, default=0.0),
            "reads": sum(num(r, "recovery.plane_reads") for r in rows) / len(rows) if rows else 0.0}


def part_claims(part, rows):
    """The checks of one part's cuts ({tag: row}); each fails, naming the key, where a cut lacks
    a figure it compares."""
    cuts = len(rows)

    def no_loss():
        n = sum(lost(r) for r in rows.values())
        return n == 0, f"{cuts} cuts, {n} sectors lost"

    def whole_namespace():
        short = [t for t, r in rows.items()
                 if num(r, "recovery.check.sectors_checked") != num(r, "ftl.logical_sectors")]
        return not short, f"{len(short)} short" + (f" ({short[0]})" if short else "")

    def in_flight():
        n = sum(interrupted(r) > 0 for r in rows.values())
        return n > 0, f"{n} of {cuts}"

    def trim_records():
        found = sum(num(r, "recovery.trim_records_found") > 0 for r in rows.values())
        return found > 0, f"in {found} of {cuts} cuts"

    def wrote_on():
        bad = sum(num(r, "integrity.mismatches") > 0 for r in rows.values())
        # ops.write is reported only by a run that wrote: absent, it wrote nothing
        wrote = sum(count(r, "ops.write.requests") > 0 for r in rows.values())
        return bad == 0 and wrote == cuts, f"{wrote} of {cuts} wrote on, {bad} with mismatches"

    def slc_gc():
        ran = sum(num(r, "placement.slc_gc_runs") > 0 for r in rows.values())
        return ran > 0, f"in {ran} of {cuts} cuts"
    out = [claim(f"{part}: no durable sector lost in any cut", no_loss),
           claim(f"{part}: every power-on read the whole namespace back", whole_namespace),
           claim(f"{part}: cuts landed with flash operations in flight", in_flight)]
    if part == "trim":
        out.append(claim("trim: recovery found trim-log records", trim_records))
    if part == "placement":
        out += [claim("placement: every recovered drive wrote on and read back clean", wrote_on),
                claim("placement: SLC GC ran after recovery", slc_gc)]
    return out


def claims(results):
    out = []
    for part in CHECKED:
        rows = in_part(results, part)
        if rows:
            out += part_claims(part, rows)
    return out


def findings(results):
    return []   # the campaign checks a contract; the trim log's cost is measured in docs/reliability.md


def write_report(results, scale, report_dir, found):
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    lines = ["# Power-cut campaign", "",
             "Written by `scripts/power_cut_campaign.py --report docs/results` (scale: " + scale + "); what it runs:",
             "scripts/ssdvp_sweep/experiments/power_cut.py, the contract: [reliability.md](../reliability.md).", "",
             "| part | scheme | buffer | cuts | sectors lost | cuts that lost | cuts mid-operation | ready ms (mean / max) | scan plane reads |",
             "|---|---|---|---|---|---|---|---|---|"]
    for part in PARTS:
        for scheme in schemes_of(part):
            for buf in BUFFERS:
                rows = [r for t, r in in_part(results, part).items() if t.endswith("/" + scheme) and f"/{buf}/" in t]
                if not rows:
                    continue
                s = summary(rows)
                lines.append(f"| {part} | {scheme} | {buf} | {s['cuts']} | {s['lost']} | {s['cuts_lost']} | "
                             f"{s['interrupted']} | {s['ready_ms']:.0f} / {s['ready_max_ms']:.0f} | {s['reads']:.0f} |")
    lines += ["", "## Checks", ""] + checks_rows(claims(results))
    if found:
        lines += ["", "## Findings", ""] + [f"- {f.paper}: {f.here} (**{f.verdict}**)" for f in found]
    path = report_dir / "power-cut.md"
    path.write_text("\n".join(lines) + "\n")
    return [path]


@register
class PowerCut(Experiment):
    name = "power-cut"
    title = "Power-cut campaign: random cuts, recovery, every durable sector read back"
    parts = PARTS
    checked = CHECKED
    schemes = SCHEMES + list(PLACEMENTS)
    run_timeout_s = 600   # a cut takes seconds: a recovered drive that stops making progress
                          # (issue 15's livelocks) fails by name instead of hanging the campaign

    def runs(self, scale, parts=None):
        return runs(scale, parts or PARTS)

    def unusable(self, results, parts):
        return unusable(results, parts)

    def claims(self, results):
        return claims(results)

    def checks(self, results, parts=None):
        parts = parts or self.checked
        errors = self.unusable(results, parts)
        if errors:
            return errors
        return [f"{c}: {fig}" for c, holds, fig in claims(results) if not holds and c.split(":")[0] in parts]

    def findings(self, results):
        return findings(results)

    def report(self, results, scale, report_dir, found):
        return write_report(results, scale, report_dir, found)
