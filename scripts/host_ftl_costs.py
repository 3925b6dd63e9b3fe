#!/usr/bin/env python3
"""What each kind of the FTL's work costs in instructions, measured on the ISS: the host FTL's
cost table (host.ftl.cost.*_instructions; docs/host-ftl.md).

The firmware charges its work in units of a few kinds (ftl-sw/hal/hal.h, enum hal_cost: an
event-loop pass that found work, a command started, a sector of a command, a flash operation
built, a flash completion handled, a DMA descriptor, a sector GC moved).  Each workload below
runs twice on one small platform: natively, where the firmware counts the units of each kind it
charges (run.json firmware.cores[].cost_units), and on the ISS with its profile (instructions
per firmware function, firmware.profile).  Every firmware function does one kind of work
(FUNCTIONS below; the RV32 build inlines its helpers into them); a kind's instructions per unit
are its functions' instructions over every ISS run divided by its units over every native run.
The device firmware's idle loop is not a host FTL's work (its threads wait on their own events)
and spinning on the lock is CPU time while waiting in the host model, not instructions: neither
is in the table.  A function the table does not name stops the script (name it).

Usage: scripts/host_ftl_costs.py [--binary build/platforms/ssdvp] [--out DIR] [--quick]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import re

KINDS = ["loop", "host_cmd", "sector", "flash_submit", "flash_done", "dma_submit", "gc_sector", "spin"]

PLATFORM = ["nand.channels=4", "nand.ways=2", "nand.planes=2", "nand.blocks_per_plane=64",
            "nand.mlc.pages_per_block=64", "dram.size_mib=256", "sim.progress=false"]
AGED = ["precondition.fill=0.9", "precondition.overwrite=0.5"]

# (name, workload, extra settings): reads and writes of every size, random and sequential,
# GC, flushes, FUA, trims, the ring buffer, and two cores (spin turns).
WORKLOADS = [
    ("randread-4k-qd1", "fio:rw=randread,bs=4k,iodepth=1,io=3000", AGED),
    ("randread-4k-qd16", "fio:rw=randread,bs=4k,iodepth=16,io=8000", AGED),
    ("read-128k", "fio:rw=read,bs=128k,iodepth=4,io=600", AGED),
    ("randread-64k", "fio:rw=randread,bs=64k,iodepth=8,io=1200", AGED),
    ("randwrite-4k-gc", "fio:rw=randwrite,bs=4k,iodepth=8,io=12000", AGED),
    ("write-128k", "fio:rw=write,bs=128k,iodepth=4,io=600", []),
    ("randrw-16k", "fio:rw=randrw,rwmixread=70,bs=16k,iodepth=8,io=3000", AGED),
    ("randwrite-fsync", "fio:rw=randwrite,bs=4k,iodepth=4,io=4000,fsync=8", AGED),
    ("randwrite-fua", "fio:rw=randwrite,bs=8k,iodepth=4,io=3000,fua_percent=50", AGED),
    ("trim-mix", "fio:rw=randwrite,bs=4k,iodepth=8,io=4000,trim_percent=20", AGED),
    ("ring-randwrite", "fio:rw=randwrite,bs=4k,iodepth=8,io=8000", AGED + ["ftl.write_buffer=ring"]),
    ("two-cores", "fio:rw=randrw,bs=4k,iodepth=8,numjobs=4,io=3000", AGED + ["firmware.cores=2", "host.queues=4"]),
]


# --quick: reads, writes with GC, a mix and the ring (a test of the script).
QUICK = ["randread-4k-qd16", "randwrite-4k-gc", "randrw-16k", "ring-randwrite"]

# The kind of work each firmware function does (names as the ISS profile gives them, without
# the compiler's .lto_priv/.constprop suffixes).
FUNCTIONS = {
    "loop": ["ftl_poll", "__udivdi3", "__umoddi3", "ring_idle", "slots_idle"],
    "host_cmd": ["hcmd_start", "hif_poll_cmds", "write_try", "read_try", "hcmd_dma_done", "idle_note_command",
                 "flush_wait", "read_send", "trim", "hcmd_trim_done", "hcmd_map_ready"],
    "sector": ["wbuf_commit_sector", "ring_alloc", "slots_alloc", "hash_del", "hash_put", "wbuf_map_applied",
               "wbuf_lookup", "wbuf_discard_lpa", "map_lookup", "map_update", "map_set", "trim_log_add"],
    "flash_submit": ["flash_submit", "wbuf_flush_step", "pick_pool", "gc_pace_host_waits", "open_for", "blocks_next_superpage",
                     "blocks_take_free", "slots_drain_mode", "ring_drain_mode", "wbuf_drain_mode", "flash_commit", "trim_log_step"],
    "flash_done": ["flash_poll", "wbuf_program_done", "map_invalidate", "host_read_done", "slots_release", "ring_release",
                   "blocks_put_free", "unlink_free", "trim_log_program_done", "hcmd_sector_ready"],
    "dma_submit": ["hif_dma_meta", "hif_dma", "hif_poll_done", "hif_commit"],
    "gc_sector": ["gc_step", "gc_program_done", "gc_read_done", "victim_index_touch", "victim_index_improved",
                  "gc_erase_done", "gc_start_victim", "gc_watch", "gc_pace_hold", "gc_park", "gc_wake", "gc_unlist",
                  "next_unparked", "lowest_bit", "gc_waits_for_flash", "slc_cache_erased", "compact",
                  "erase_log_erased"],
    "device_idle": ["event_loop", "ftl_idle", "hal_wait_for_event", "fw_lock", "fw_unlock", "fw_wake_others",
                    "idle_poll", "wbuf_idle"],
}
KIND_OF = {fn: k for k, fns in FUNCTIONS.items() for fn in fns}


def run(binary, out, name, workload, sets):
    cmd = [binary, "run", "-q", "--workload", workload, "-o", out]
    for s in PLATFORM + sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "run.json")) as f:
        r = json.load(f)
    if not r.get("completed") or r.get("errors"):
        sys.exit(f"{name}: the run did not complete cleanly: {r.get('errors')}")
    return r


def measure(binary, outdir, quick):
    """Instructions of each kind's functions (ISS) and its units (native), over every run."""
    instructions = {k: 0 for k in FUNCTIONS}
    units = {k: 0 for k in KINDS}
    for name, workload, sets in ([w for w in WORKLOADS if w[0] in QUICK] if quick else WORKLOADS):
        nat = run(binary, os.path.join(outdir, name + "-native"), name, workload, sets)
        iss = run(binary, os.path.join(outdir, name + "-iss"), name, workload, sets + ["firmware.mode=iss", "firmware.profile=true"])
        for c in nat["firmware"]["cores"]:
            for k in KINDS:
                units[k] += c["cost_units"][k]
        for f in iss["firmware"]["profile"]:
            fn = re.sub(r"\.(lto_priv|constprop|isra|part|cold)(\.\d+)?", "", f["function"])
            if fn not in KIND_OF:
                sys.exit(f"{name}: the ISS profile has a function no kind names: {fn} ({f['instructions']} instructions); "
                         "add it to FUNCTIONS")
            instructions[KIND_OF[fn]] += f["instructions"]
        print(f"  {name}", file=sys.stderr)
    return instructions, units


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", "build", "platforms", "ssdvp"))
    ap.add_argument("--out", help="where the runs go (default: a temporary directory)")
    ap.add_argument("--quick", action="store_true", help="four of the workloads only (a test of the script)")
    a = ap.parse_args()
    outdir = a.out or tempfile.mkdtemp(prefix="host-ftl-costs-")
    instructions, units = measure(a.binary, outdir, a.quick)
    total = sum(instructions.values())
    print(f"{'kind':14s} {'instructions':>14s} {'share':>6s} {'units':>10s} {'per unit':>9s}")
    for k in FUNCTIONS:
        u = units.get(k)
        per = f"{instructions[k] / u:9.0f}" if u else "        -"
        print(f"{k:14s} {instructions[k]:>14,d} {100 * instructions[k] / total:5.1f}% {u if u is not None else '-':>10} {per}")
    print()
    print("# host.ftl.cost.*: instructions per unit of work, RV32 on the ISS (scripts/host_ftl_costs.py)")
    for k in KINDS:
        if k == "spin":
            continue
        print(f"host.ftl.cost.{k}_instructions = {instructions[k] / units[k]:.0f}" if units[k] else
              f"# host.ftl.cost.{k}_instructions: no run charged it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
