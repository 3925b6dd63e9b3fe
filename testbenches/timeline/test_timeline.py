#!/usr/bin/env python3
"""`ssdvp run --timeline` on a small drive (platforms/run_timeline.h): the file passes
check_timeline.py (format and completeness against run.json); the checker fails on copies with
one die slice, one span end or the order of a track broken; --timeline-window keeps only events
ending in the window; on the ISS with firmware.profile a track of the functions core 0 ran,
inside its busy spells; --timeline-max-events cuts the file and says so; bad options are refused
with a message naming them.

Usage: test_timeline.py  (SSDVP_BINARY: the ssdvp binary)
"""
import copy
import json
import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parent))
sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
import check_timeline  # noqa: E402
from small_platform import SMALL, report  # noqa: E402

WORKLOAD = "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=16,io=3000"


def run(binary, out, *extra, check=True):
    cmd = [binary, "run", "-q", *SMALL, "-w", WORKLOAD, "-o", str(out), *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}: {p.stderr}")
    return p


def load(path):
    return json.loads(pathlib.Path(path).read_text())


def main():
    binary = os.environ.get("SSDVP_BINARY") or sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory(prefix="ssdvp-timeline-") as tmp:
        tmp = pathlib.Path(tmp)
        run(binary, tmp / "full", "--timeline", str(tmp / "full" / "timeline.json"))
        timeline, result = load(tmp / "full" / "timeline.json"), load(tmp / "full" / "run.json")
        found = check_timeline.problems(timeline, result)
        if found:
            failures.append(f"full run: {found[:5]}")
        # The events the file holds, counted in it: a slice (X), a counter sample (C), an
        # instant on a track (i, s=t) and a span (its begin b; its end e is the same event).
        in_file = sum(1 for e in timeline["traceEvents"]
                      if e["ph"] in ("X", "C", "b") or (e["ph"] == "i" and e.get("s") == "t"))
        for where, kept in (("run.json timeline.events_kept", result["timeline"]["events_kept"]),
                            ("the file's otherData events_kept", timeline["otherData"]["ssdvp_timeline"]["events_kept"])):
            if kept != in_file:
                failures.append(f"{where} is {kept}, the file holds {in_file} events")
        names = {e["name"] for e in timeline["traceEvents"]}
        for want in ("read", "write", "busy", "command / data in", "program host", "write buffer entries in use",
                     "free superblocks"):
            if want not in names:
                failures.append(f"full run: no event named {want!r}")

        # The checker fails on broken copies.
        events = timeline["traceEvents"]
        die_tracks = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"
                      and e["args"]["name"].startswith("die ")}
        first_die = next(i for i, e in enumerate(events) if e["ph"] == "X" and (e["pid"], e["tid"]) in die_tracks)
        first_end = next(i for i, e in enumerate(events) if e["ph"] == "e")
        track = (events[first_die]["pid"], events[first_die]["tid"])
        same_track = [i for i, e in enumerate(events) if e["ph"] == "X" and (e["pid"], e["tid"]) == track]
        broken = {
            "a die slice dropped": lambda ev: ev.pop(first_die),
            "a span end dropped": lambda ev: ev.pop(first_end),
            "a track out of order": lambda ev: ev.__setitem__(same_track[1], {**ev[same_track[1]], "ts": 0}),
            "two slices overlapping": lambda ev: ev.__setitem__(
                same_track[0], {**ev[same_track[0]], "dur": ev[same_track[1]]["ts"] - ev[same_track[0]]["ts"] + 5}),
            "a missing field": lambda ev: ev[first_die].pop("dur"),
        }
        for what, breaks in broken.items():
            copy_ = copy.deepcopy(timeline)
            breaks(copy_["traceEvents"])
            if not check_timeline.problems(copy_, result):
                failures.append(f"the checker passed a timeline with {what}")

        # A window: only events ending inside it, and the file says which.
        run(binary, tmp / "window", "--timeline", str(tmp / "window" / "t.json"), "--timeline-window", "2:4")
        w = load(tmp / "window" / "t.json")
        found = check_timeline.problems(w, load(tmp / "window" / "run.json"))
        if found:
            failures.append(f"windowed run: {found[:5]}")
        start_us = w["otherData"]["run"]["measured_run_us"][0]
        lo, hi = w["otherData"]["ssdvp_timeline"]["window_us"]
        if abs(lo - (start_us + 2000)) > 0.01 or abs(hi - (start_us + 4000)) > 0.01:
            failures.append(f"window_us {lo}:{hi}, expected the measured run's start {start_us} + 2 ms : + 4 ms")
        for e in w["traceEvents"]:
            if e["ph"] in "XC" and not lo - 0.002 <= e["ts"] + e.get("dur", 0) <= hi + 0.002:
                failures.append(f"windowed run: {e} ends outside {lo}:{hi}")
                break
        if not any(e["ph"] == "X" for e in w["traceEvents"]):
            failures.append("windowed run kept no slice")

        # A cap: the file is cut and says where.
        run(binary, tmp / "cap", "--timeline", str(tmp / "cap" / "t.json"), "--timeline-max-events", "500")
        c = load(tmp / "cap" / "t.json")
        meta = c["otherData"]["ssdvp_timeline"]
        if meta["events_kept"] != 500 or meta["events_dropped"] <= 0:
            failures.append(f"capped run: {meta}")
        if not any(e["ph"] == "i" and e["name"].startswith("timeline cut") for e in c["traceEvents"]):
            failures.append("capped run: no 'timeline cut' marker")
        found = check_timeline.problems(c, load(tmp / "cap" / "run.json"))
        if found:
            failures.append(f"capped run: {found[:5]}")

        # The ISS with firmware.profile: a track of the functions core 0 ran, each stretch inside
        # one of the core's busy spells.
        run(binary, tmp / "iss", "--timeline", str(tmp / "iss" / "t.json"), "-s", "firmware.mode=iss",
            "-s", "firmware.profile=true", "-s", "workload.max_requests=400")
        i = load(tmp / "iss" / "t.json")
        found = check_timeline.problems(i, load(tmp / "iss" / "run.json"))
        if found:
            failures.append(f"ISS run: {found[:5]}")
        names = {(e["pid"], e["tid"]): e["args"]["name"] for e in i["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "thread_name"}
        busy = sorted((e["ts"], e["ts"] + e["dur"]) for e in i["traceEvents"]
                      if e["ph"] == "X" and names[(e["pid"], e["tid"])] == "core 0")
        spans = [e for e in i["traceEvents"] if e["ph"] == "X" and names[(e["pid"], e["tid"])] == "core 0 functions"]
        if "event_loop" not in {e["name"] for e in spans}:
            failures.append(f"ISS run: no event_loop on core 0's function track ({len(spans)} slices)")
        k = 0
        for e in spans:
            while k < len(busy) and busy[k][1] < e["ts"] + e["dur"] - 0.002:
                k += 1
            if k == len(busy) or e["ts"] < busy[k][0] - 0.002:
                failures.append(f"ISS run: {e['name']} at {e['ts']} us outside core 0's busy spells")
                break

        # Bad options: refused before the run, naming the option.
        for extra, words in ((["--timeline", str(tmp / "x.json"), "--timeline-window", "5"], "--timeline-window 5"),
                             (["--timeline", str(tmp / "x.json"), "--timeline-window", "4:2"], "T1 must be after T0"),
                             (["--timeline", str(tmp / "x.json"), "--timeline-window", "a:2"], "'a' is not a time"),
                             (["--timeline-window", "1:2"], "needs --timeline"),
                             (["--timeline", "/proc/none/t.json"], "cannot write /proc/none/t.json")):
            p = run(binary, tmp / "bad", *extra, check=False)
            if p.returncode == 0 or words not in p.stderr:
                failures.append(f"{extra}: exit {p.returncode}, stderr {p.stderr.strip()!r} (wanted {words!r})")
    return report("timeline checks", failures)


if __name__ == "__main__":
    sys.exit(main())
