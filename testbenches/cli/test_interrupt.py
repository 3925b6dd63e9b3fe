#!/usr/bin/env python3
"""Ctrl-C on a long `ssdvp run`: the run stops at its next update phase and writes what it has:
exit status 130, the summary's INTERRUPTED line (simulated time and requests done so far) and
its figures, run.json with "interrupted" and completed false, no "stuck" error. Before, SIGINT
killed the process with nothing written. During the functional preconditioning (one firmware
call, seconds to minutes) Ctrl-C ends the run at once, saying nothing was measured (it waited for
the whole fill before).
Exits non-zero naming every failed check."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
failures = []
with tempfile.TemporaryDirectory(prefix="ssdvp-interrupt-") as tmp:
    out = os.path.join(tmp, "run")
    p = subprocess.Popen([BINARY, "run", "-o", out, "-s", "precondition.fill=0", "-s", "nand.blocks_per_plane=64",
                          "-w", "fio:rw=randwrite,bs=4k,io=50000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    deadline = time.monotonic() + 60
    while not os.path.isdir(out) and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)   # the output folder is made just before Ctrl-C is watched
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    if p.returncode != 130:
        failures.append(f"exit {p.returncode}, not 130: {stderr[-400:]}")
    if "INTERRUPTED (SIGINT) at" not in stdout or "write " not in stdout:
        failures.append(f"the summary does not say it was interrupted, with its figures: {stdout[-600:]!r}")
    path = os.path.join(out, "run.json")
    if not os.path.exists(path):
        failures.append("no run.json")
    else:
        r = json.load(open(path))
        i = r.get("interrupted", {})
        print(f"interrupted at {i.get('at_s')} s simulated, {i.get('host_requests_done')} requests done; "
              f"completed {r.get('completed')}, errors {r.get('errors')}")
        if not i or r.get("completed") or r.get("errors") or not i.get("host_requests_done"):
            failures.append(f"run.json: interrupted {i}, completed {r.get('completed')}, errors {r.get('errors')}")
    # The default drive's functional fill takes several wall seconds: cut 0.5 s into it.
    pre = os.path.join(tmp, "pre")
    p = subprocess.Popen([BINARY, "run", "-o", pre, "-w", "fio:rw=randread,io=1000"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not os.path.isdir(pre) and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
    time.sleep(0.5)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    took = time.monotonic() - sent
    print(f"SIGINT while preconditioning: exit {p.returncode} after {took:.2f} s")
    if p.returncode != 130 or "before the measured run began" not in stderr:
        failures.append(f"SIGINT while preconditioning: exit {p.returncode}, {stderr[-300:]!r}")
    if took > 1.0:
        failures.append(f"SIGINT while preconditioning took {took:.2f} s to end the run (it waited for the fill)")
for f in failures:
    print("FAIL:", f)
print(f"{2 - bool(failures)} passed, {int(bool(failures))} failed")
sys.exit(1 if failures else 0)
