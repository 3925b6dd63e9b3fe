#!/usr/bin/env python3
"""Checks a timeline written by `ssdvp run --timeline` (platforms/run_timeline.h) against the
trace-event format and against the run that wrote it.

Format: the JSON schema beside this file (required fields per phase), every async begin (b)
matched by one end (e) of the same id and name, no end without a begin, timestamps in order on
every track (tid), slices (X) on a track that do not overlap (one activity at a time: a die's
array, a channel's bus, a core), every event's pid/tid named by metadata.
Completeness (a run without a window or a cap): one span per host request of the run
(run.json host_requests, per operation ops.*.requests), one die slice per flash operation of
the measured run (run.json flash_operations), every die and channel with a track.

Usage: check_timeline.py TIMELINE.json RUN.json   (exit 0 good, 1 a finding, 2 bad input)
"""
import json
import pathlib
import sys
from collections import Counter, defaultdict

import jsonschema

SCHEMA = pathlib.Path(__file__).with_name("trace_event.schema.json")
# Slices end a little after the next begins on no track, but timestamps are written with
# nanosecond digits: allow the rounding of one digit.
ROUNDING_US = 0.0015


def problems(timeline, run):
    found = []
    try:
        jsonschema.validate(timeline, json.loads(SCHEMA.read_text()))
    except jsonschema.ValidationError as e:
        return [f"schema: {e.message} at {'/'.join(str(p) for p in e.absolute_path)}"]
    events = timeline["traceEvents"]
    named_pids = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    named_tids = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    track_names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
                   if e["ph"] == "M" and e["name"] == "thread_name"}
    last_ts = {}
    last_slice_end = {}
    open_spans = {}
    spans = Counter()
    die_slices = 0
    for i, e in enumerate(events):
        if e["ph"] == "M":
            continue
        where = f"event {i} ({e['ph']} {e['name']!r})"
        track = (e["pid"], e["tid"])
        if e["pid"] not in named_pids or (e["ph"] != "i" or e.get("s") == "t") and track not in named_tids:
            found.append(f"{where}: pid/tid {track} not named by a metadata event")
        if e["ts"] + ROUNDING_US < last_ts.get(track, 0):
            found.append(f"{where}: ts {e['ts']} before the previous event of its track ({last_ts[track]})")
        last_ts[track] = max(last_ts.get(track, 0), e["ts"])
        if e["ph"] == "X":
            if e["ts"] + ROUNDING_US < last_slice_end.get(track, 0):
                found.append(f"{where}: overlaps the previous slice of track {track_names.get(track)} "
                             f"(ends at {last_slice_end[track]})")
            last_slice_end[track] = e["ts"] + e["dur"]
            if track_names.get(track, "").startswith("die "):
                die_slices += 1
        elif e["ph"] == "b":
            key = (e["cat"], e["id"])
            if key in open_spans:
                found.append(f"{where}: id {e['id']} begun twice")
            open_spans[key] = e
        elif e["ph"] == "e":
            key = (e["cat"], e["id"])
            begin = open_spans.pop(key, None)
            if begin is None:
                found.append(f"{where}: end of id {e['id']} without a begin")
            elif begin["name"] != e["name"] or begin["pid"] != e["pid"]:
                found.append(f"{where}: end of id {e['id']} names {e['name']!r} on pid {e['pid']}, "
                             f"its begin {begin['name']!r} on pid {begin['pid']}")
            else:
                spans[e["name"]] += 1
    for (cat, ident), e in open_spans.items():
        found.append(f"span id {ident} ({e['name']!r}) begun at {e['ts']} and never ended")

    meta = timeline["otherData"]["ssdvp_timeline"]
    if meta["events_dropped"] or meta["window_us"][1] is not None:
        return found   # a cut or windowed timeline holds part of the run: no completeness check
    for op, figures in run.get("ops", {}).items():
        if spans[op] != figures["requests"]:
            found.append(f"{spans[op]} host {op} spans, the run completed {figures['requests']}")
    if sum(spans.values()) != run["host_requests"]:
        found.append(f"{sum(spans.values())} host spans, run.json host_requests {run['host_requests']}")
    if die_slices != run["flash_operations"]:
        found.append(f"{die_slices} die slices, run.json flash_operations {run['flash_operations']}")
    nand = timeline["otherData"]["run"]
    dies = sum(1 for n in track_names.values() if n.startswith("die "))
    channels = sum(1 for n in track_names.values() if n.startswith("channel "))
    if dies != nand["channels"] * nand["ways"] or channels != nand["channels"]:
        found.append(f"{dies} die tracks and {channels} channel tracks for {nand['channels']} channels x "
                     f"{nand['ways']} ways")
    return found


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        timeline = json.loads(pathlib.Path(argv[1]).read_text())
        run = json.loads(pathlib.Path(argv[2]).read_text())
    except (OSError, ValueError) as e:
        print(f"check_timeline: {e}", file=sys.stderr)
        return 2
    found = problems(timeline, run)
    for p in found[:20]:
        print(f"check_timeline: {argv[1]}: {p}")
    if len(found) > 20:
        print(f"check_timeline: ... and {len(found) - 20} more")
    if not found:
        kinds = Counter(e["ph"] for e in timeline["traceEvents"])
        print(f"check_timeline: {argv[1]}: good ({dict(kinds)})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
