#!/usr/bin/env python3
"""fio's time and pace through the real driver (the generator's side: traces FioPace.*): runtime
with time_based ends the run at its time, rate_iops and rate hold each direction to its rate,
thinktime waits after each thinktime_blocks requests for them all and then thinks, and phases
each keep their own clock. Each figure is compared with what the option asks for, so a driver that
ignores a request's time (issues as soon as the queue depth allows) fails here. Exits non-zero
naming every failed check."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
failures = []


def run(spec):
    out = Path(tempfile.mkdtemp(prefix="fio-pace-"))
    p = subprocess.run([BINARY, "run", "--no-precondition", "-q", "-w", spec, "-o", str(out)],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        failures.append(f"{spec}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
        return None
    return json.loads((out / "run.json").read_text())


def within(what, got, low, high):
    ok = low <= got <= high
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got:.6g} (want {low:.6g} .. {high:.6g})")
    if not ok:
        failures.append(f"{what}: {got:.6g} outside {low:.6g} .. {high:.6g}")


# runtime=20ms with time_based: the run is 20 ms and what was in flight then (16 reads of ~0.1 ms).
r = run("fio:rw=randread,bs=4k,iodepth=16,runtime=20ms,time_based")
if r:
    within("time_based runtime=20ms: measured time, ms", r["sim_time_s"] * 1e3, 20.0, 20.5)
    within("time_based runtime=20ms: reads (unpaced: about 125k/s)", r["ops"]["read"]["requests"], 2000, 3000)
# rate_iops: 2,000 reads at 20,000/s at iodepth 16 (unpaced they take 16 ms).
r = run("fio:rw=randread,bs=4k,iodepth=16,io=2000,rate_iops=20000")
if r:
    within("rate_iops=20000: read IOPS", r["ops"]["read"]["iops"], 19800, 20200)
# Per direction: writes at 5,000/s bind the mixed job (reads 10,000/s, about half the requests).
r = run("fio:rw=randrw,bs=4k,iodepth=16,io=4000,rate_iops=10000:5000")
if r:
    writes = r["ops"]["write"]["requests"]
    within("rate_iops=10000:5000: measured time against the writes' slots, s", r["sim_time_s"],
           (writes - 1) / 5000, (writes - 1) / 5000 + 0.002)
# rate in bytes: 4,000 reads of 4 KiB at 40 MiB/s.
r = run("fio:rw=randread,bs=4k,iodepth=16,io=4000,rate=40MiB")
if r:
    within("rate=40MiB: read MB/s", r["ops"]["read"]["mbps"], 40 * 1.048576 * 0.99, 40 * 1.048576 * 1.01)
# thinktime=1ms (thinktime_blocks=1): a read, 1 ms, a read, ...: 200 x (1 ms + a read's latency).
r = run("fio:rw=randread,bs=4k,iodepth=16,io=200,thinktime=1ms")
if r:
    lat = r["ops"]["read"]["latency_us"]["mean"] * 1e-6
    within("thinktime=1ms: measured time, s", r["sim_time_s"], 199 * 1e-3 + 200 * lat * 0.95, 199 * 1e-3 + 200 * lat * 1.1)
# thinktime_blocks=4 at iodepth 16: batches of 4 (never 16 in flight), 50 thinks.
r = run("fio:rw=randread,bs=4k,iodepth=16,io=200,thinktime=1ms,thinktime_blocks=4")
if r:
    within("thinktime=1ms,thinktime_blocks=4: measured time, s", r["sim_time_s"], 0.049, 0.049 + 50 * 0.0003)
# Phases: each its own clock: 10 ms of 4 KiB reads, then 10 ms of 64 KiB reads (a clock shared
# with the first phase would end the second at once).
r = run("fio:rw=randread,bs=4k,iodepth=8,runtime=10ms,time_based;fio:rw=randread,bs=64k,iodepth=8,runtime=10ms,time_based")
if r:
    within("two time-based phases of 10 ms: measured time, ms", r["sim_time_s"] * 1e3, 20.0, 20.5)
    big = (r["ops"]["read"]["bytes"] - 4096 * r["ops"]["read"]["requests"]) / (65536 - 4096)
    within("two time-based phases: 64 KiB reads of the second (PCIe-bound: about 46k/s)", big, 300, 600)
# A fio job file runs as the spec it stands for: the same requests, the same figures; the options
# with no effect here are named on the summary and in run.json.
job = Path(tempfile.mkdtemp(prefix="fio-job-")) / "mixed.fio"
job.write_text("[global]\nioengine=libaio\ndirect=1\nbs=4k\niodepth=8\ntime_based\nruntime=5ms\n"
               "[w]\nrw=randwrite\nrate_iops=20000\n[r]\nrw=randread\n[then]\nstonewall\nrw=read\n")
from_file = run(str(job))
from_spec = run("fio:bs=4k,iodepth=8,time_based,runtime=5ms,rw=randwrite,rate_iops=20000"
                "&fio:bs=4k,iodepth=8,time_based,runtime=5ms,rw=randread;fio:bs=4k,iodepth=8,time_based,runtime=5ms,rw=read")
if from_file and from_spec:
    for key in ("workload", "sim_time_s", "ops"):
        if from_file[key] != from_spec[key]:
            failures.append(f"job file and its spec differ in {key}: {from_file[key]!r} vs {from_spec[key]!r}")
    if from_file.get("workload_job_file_left_out") != ["ioengine=libaio (line 2)", "direct=1 (line 3)"]:
        failures.append(f"run.json workload_job_file_left_out: {from_file.get('workload_job_file_left_out')!r}")
    summary = subprocess.run([BINARY, "run", "--no-precondition", "-w", str(job), "-o", str(job.parent / "out")],
                             capture_output=True, text=True, timeout=600).stdout
    if "left out: ioengine=libaio (line 2), direct=1 (line 3)" not in summary:
        failures.append(f"the summary does not name the left-out options: {summary[-400:]!r}")
    print("job file: same run as its spec; left-out options named")
for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
