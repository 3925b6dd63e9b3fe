#!/usr/bin/env python3
"""`ssdvp serve` pacing, firmware and channel kinds, and how a run ends (small platform).

* Virtual pacing: a client that waits 1 s between requests does not move simulated time (the
  simulation waits for it: serve.idle), and its reads take less wall time than the drive's
  simulated latency is long or not, whatever the machine.
* Realtime pacing: simulated time follows the clock (the same client's 1 s pause is 1 s of
  simulated time) and never runs ahead of it (simulated time at most the run's wall time), and
  a client timing its own QD1 reads sees at least the drive's latency (the median over 300
  reads at least the drive's p50). serve.lag bounds how late requests and replies were: mean
  under 2 ms and p99 under 20 ms (chosen: 50-100x this machine's floor of 6-10 us mean and
  20-33 us p99, docs/serve.md, so that a loaded CI machine passes and a pacer that falls
  behind for good does not).
* Real data with the firmware on the ISS and the RTL channel: 8 MiB of random bytes read back;
  with pblk on the host over the Open-Channel device: 40 MiB.
* --persist: the run goes on after the client leaves and ends on SIGTERM, with run.json.
* --state-cache and --data memory: a first run preconditions and saves the drive, a second
  loads it (no preconditioning); the clients' bytes in memory leave no data folder; 4 MiB read
  back in both.
Exits non-zero naming every failed check.
"""
import json
import os
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from small_platform import SMALL, report  # noqa: E402

import nbd  # noqa: E402  (python3-libnbd)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_process  # noqa: E402

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
KiB, MiB = 1024, 1024 * 1024


def start(tmp, extra=()):
    p, uri = serve_process.start(BINARY, tmp, ["--linger", "0"] + SMALL + list(extra))
    h = nbd.NBD()
    h.connect_uri(uri)
    return p, h


def finish(p, tmp, failures, what):
    out, err = p.communicate(timeout=300)
    if p.returncode != 0:
        failures.append(f"{what}: ssdvp serve exited {p.returncode}: {err[-1500:]}")
        return None
    r = json.load(open(os.path.join(tmp, "run.json")))
    if not r["completed"] or r["integrity"]["mismatches"]:
        failures.append(f"{what}: run.json completed {r['completed']}, integrity {r['integrity']}")
    return r


def paced(pace, failures):
    with tempfile.TemporaryDirectory(prefix=f"ssdvp-serve-{pace}-") as tmp:
        p, h = start(tmp, ["--pace", pace])
        try:
            h.pwrite(os.urandom(4 * KiB), 0)
            time.sleep(1.0)
            lat = []
            for i in range(300):
                t = time.perf_counter()
                h.pread(4 * KiB, (1 + 17 * i) * 4 * KiB)
                lat.append(time.perf_counter() - t)
            h.shutdown()
        except Exception:
            p.kill()
            raise
        r = finish(p, tmp, failures, pace)
        if r is None:
            return
        sim, s = r["sim_time_s"], r["serve"]
        drive_p50 = r["ops"]["read"]["latency_us"]["p50"] * 1e-6
        client_p50 = statistics.median(lat)
        print(f"{pace}: simulated {sim:.4f} s; reads: drive p50 {drive_p50 * 1e6:.1f} us, client median "
              f"{client_p50 * 1e6:.1f} us; {json.dumps(s.get('lag') or s.get('idle'))}")
        if s["pace"] != pace:
            failures.append(f"{pace}: run.json serve.pace {s['pace']}")
        if pace == "virtual":
            if sim > 0.5:
                failures.append(f"virtual: {sim:.3f} s simulated: the client's 1 s pause moved simulated time")
            if s["idle"]["waits"] < 2 or s["idle"]["wall_s"] < 0.9:
                failures.append(f"virtual: the simulation did not wait for the client: {s['idle']}")
        else:
            if sim < 1.0:
                failures.append(f"realtime: {sim:.3f} s simulated for more than 1 s of the clock")
            if client_p50 < drive_p50:
                failures.append(f"realtime: the client's reads ({client_p50 * 1e6:.1f} us) are quicker than the drive's "
                                f"({drive_p50 * 1e6:.1f} us): simulated time ran behind the clock unreported")
            lag = s.get("lag", {})
            if sim > r["run_wall_time_s"] + 0.01:
                failures.append(f"realtime: {sim:.3f} s simulated in {r['run_wall_time_s']:.3f} s of the clock: "
                                "simulated time ran ahead of it")
            for key, bound in (("mean_us", 2000), ("p99_us", 20000), ("reply_mean_us", 2000), ("reply_p99_us", 20000)):
                if key not in lag or not 0 <= lag[key] < bound:
                    failures.append(f"realtime: serve.lag.{key} = {lag.get(key)} us, not under {bound} us: {lag}")


def round_trip(what, extra, mib, failures):
    """mib MiB of random bytes written, flushed and read back through a drive served with extra."""
    with tempfile.TemporaryDirectory(prefix="ssdvp-serve-data-") as tmp:
        p, h = start(tmp, extra)
        try:
            data = os.urandom(MiB)
            for i in range(mib):
                h.pwrite(data, i * MiB)
            h.flush()
            bad = sum(h.pread(MiB, i * MiB) != data for i in range(mib))
            if bad:
                failures.append(f"{what}: {bad} of {mib} MiB read back wrong")
            h.shutdown()
        except Exception:
            p.kill()
            raise
        finish(p, tmp, failures, what)


def iss_rtl(failures):
    round_trip("ISS + RTL", ["-s", "firmware.mode=iss", "-s", "channel.model=rtl"], 8, failures)


def host_ftl(failures):
    """pblk on the host over the Open-Channel device: its ring in host memory and its vector
    commands carry the bytes too (40 MiB: more than the ring, so most reads come from flash)."""
    round_trip("host FTL", ["-s", "device.interface=ocssd", "-s", "host.ftl=pblk", "-s", "ftl.write_buffer=ring",
                            "-s", "precondition.mode=timed", "--no-precondition"], 40, failures)


def persist(failures):
    with tempfile.TemporaryDirectory(prefix="ssdvp-serve-persist-") as tmp:
        p, h = start(tmp, ["--persist"])
        h.pwrite(bytes(range(256)) * 16, 0)
        h.shutdown()
        time.sleep(1.0)
        if p.poll() is not None:
            failures.append("--persist: the run ended when the client left")
        p.send_signal(signal.SIGTERM)
        r = finish(p, tmp, failures, "--persist")
        if r and r["serve"]["end"] != "SIGTERM":
            failures.append(f"--persist: ended on {r['serve']['end']!r}, not SIGTERM")


def state_cache_memory(failures):
    with tempfile.TemporaryDirectory(prefix="ssdvp-serve-state-") as tmp:
        cache = os.path.join(tmp, "cache")
        for i, want in enumerate(("saved", "loaded")):
            out = os.path.join(tmp, f"run{i}")
            p, h = start(out, ["--state-cache", cache, "--data", "memory"])
            try:
                data = os.urandom(MiB)
                for k in range(4):
                    h.pwrite(data, (7 + k) * MiB)
                h.flush()
                bad = sum(h.pread(MiB, (7 + k) * MiB) != data for k in range(4))
                h.shutdown()
            except Exception:
                p.kill()
                raise
            r = finish(p, out, failures, f"--state-cache run {i}")
            if bad:
                failures.append(f"--state-cache run {i}: {bad} of 4 MiB read back wrong")
            if r is not None and want not in r.get("drive_state", {}):
                failures.append(f"--state-cache run {i}: the drive was not {want}: {r.get('drive_state')}")
            if os.path.exists(os.path.join(out, "data")):
                failures.append(f"--data memory: run {i} made {out}/data")
            print(f"--state-cache run {i}: drive_state {json.dumps(r and r.get('drive_state', {}).get(want))}")


def main():
    failures = []
    state_cache_memory(failures)
    paced("virtual", failures)
    paced("realtime", failures)
    iss_rtl(failures)
    host_ftl(failures)
    persist(failures)
    return report("ssdvp serve pacing", failures)


if __name__ == "__main__":
    sys.exit(main())
