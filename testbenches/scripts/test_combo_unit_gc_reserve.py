"""ComboFTL's unit GC must not take another pool's last free superblock (ftl-sw/place/unit_map.c,
take_block).  When it did, the LAPT paper's mixed device with a DRAM write cache, on the
Exchange-like trace at queue depth 1, stopped at 13.75 s simulated with 23,987 of its requests
done: the unit GC of one MLC pool had taken the other's GC reserve, that pool could no longer
clean, and the first pool's victim then waited for a superblock no pool could give ("the
simulation ran out of events ... the firmware is stuck").  The timing that reaches it is host
delays of 2 us per submission and 4.63 us per completion (the host I/O stack's defaults, as fixed
delays here: host.stack = "none", under which host.submit_ns and host.irq_ns are the delays; the
modelled stack, the default, would refuse them: docs/host-stack.md).  The run must finish with
every read checked.  A drive that stops making progress ends the run by a simulated-time bound
(sim.stall_limit_ms: no request completed in 2 s of simulated time), not by a wall-clock limit;
one that runs out of events says so itself ("the firmware is stuck"): both exit 3."""
import json
import os
import subprocess
import sys
import tempfile

root = os.path.join(os.path.dirname(__file__), "..", "..")
binary = os.environ["SSDVP_BINARY"]
with tempfile.TemporaryDirectory() as out:
    trace = os.path.join(out, "exchange-0.5.trace")
    subprocess.run([sys.executable, os.path.join(root, "scripts", "lapt_profiles.py"), "exchange", "--span-sectors", "786432",
                    "--scale", "0.5", "--seed", "1", "--out", trace], check=True, capture_output=True)
    p = subprocess.run([binary, "run", "-q", "--platform", os.path.join(root, "platforms", "lapt-paper-mixed.toml"),
                        "--out", os.path.join(out, "run"),
                        "--set", "device.volatile_write_cache=true", "--set", 'ftl.placement="combo"',
                        "--set", "ftl.slc_gc_low_blocks=2", "--set", "ftl.slc_gc_high_blocks=2",
                        "--set", "precondition.overwrite=0", "--set", 'host.stack="none"', "--set", "host.submit_ns=2000",
                        "--set", "host.irq_ns=4630", "--set", "sim.stall_limit_ms=2000",
                        "-w", f"trace:{trace},replay=closed,iodepth=1"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"the run failed (exit {p.returncode}): {p.stderr.strip()}")
    r = json.load(open(os.path.join(out, "run", "run.json")))
done, reads = r["host_requests"], r["integrity"]["reads_checked"]
print(f"{done} requests, {reads} reads checked, {r['integrity']['mismatches']} mismatches, unit GC runs "
      f"{r['placement'].get('unit_gc_runs')}")
if r["integrity"]["mismatches"] or not r["completed"] or done < 40000:
    sys.exit("the run did not complete cleanly")
