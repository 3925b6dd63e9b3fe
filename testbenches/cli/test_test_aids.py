#!/usr/bin/env python3
"""Test aids (keys that build a deliberately broken drive or check the firmware's internals,
docs/config.md "Test aids") are refused unless the command opts in, and said when on.

* `ssdvp run` with ftl.test_defect, ftl.gc_check_victims, ftl.check_pool_walk or
  sim.check_flush_durability set and no --test-aids: exit 2, one error naming the key, where it
  was set and the way to opt in; nothing runs (no run.json).  A test aid given at its default is
  no test aid.
* With --test-aids: the run goes on, stderr says which aids are on (also with -q), and run.json
  lists them (`test_aids`); without any, `test_aids` is empty.
* `ssdvp serve` refuses one the same way.
Exits non-zero naming every failed check.
"""
import json
import os
import subprocess
import sys
import tempfile

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
SMALL = ["-s", "nand.blocks_per_plane=64", "--no-precondition", "-w", "fio:rw=randwrite,bs=4k,io=200"]
AIDS = ["ftl.test_defect=flush-before-program", "ftl.gc_check_victims=true", "ftl.check_pool_walk=true",
        "sim.check_flush_durability=true"]


def run(args):
    return subprocess.run([BINARY] + args, capture_output=True, text=True, timeout=300)


def main():
    failures, checks = [], 0
    with tempfile.TemporaryDirectory(prefix="ssdvp-aids-") as tmp:
        for k, aid in enumerate(AIDS):
            out = os.path.join(tmp, f"refused-{k}")
            p = run(["run", "-q", "-o", out, "-s", aid] + SMALL)
            key = aid.split("=")[0]
            checks += 1
            if p.returncode != 2 or f"--set {key}: {key} = " not in p.stderr or "--test-aids" not in p.stderr:
                failures.append(f"{aid} without --test-aids: exit {p.returncode}, {p.stderr.strip()[-300:]!r}")
            elif os.path.exists(os.path.join(out, "run.json")):
                failures.append(f"{aid} without --test-aids: refused, but run.json was written")
            else:
                print(f"{aid}: refused ({p.stderr.strip().splitlines()[-1][:110]}...)")

        p = run(["run", "-q", "-o", os.path.join(tmp, "default"), "-s", "ftl.test_defect=none"] + SMALL)
        checks += 1
        if p.returncode != 0:
            failures.append(f"ftl.test_defect=none (the default) was refused: {p.returncode} {p.stderr[-300:]!r}")

        out = os.path.join(tmp, "opted-in")
        p = run(["run", "-q", "--test-aids", "-o", out, "-s", AIDS[1], "-s", AIDS[3]] + SMALL)
        checks += 1
        want = "ssdvp: warning: test aids on, not the drive as built: ftl.gc_check_victims = true, " \
               "sim.check_flush_durability = true"
        if p.returncode != 0 or want not in p.stderr:
            failures.append(f"--test-aids: exit {p.returncode}, stderr {p.stderr[-400:]!r}")
        else:
            listed = json.load(open(os.path.join(out, "run.json")))["test_aids"]
            if listed != ["ftl.gc_check_victims = true", "sim.check_flush_durability = true"]:
                failures.append(f"--test-aids: run.json test_aids {listed}")
            else:
                print(f"--test-aids: ran, warned and listed {listed}")
        checks += 1
        none = json.load(open(os.path.join(tmp, "default", "run.json"))).get("test_aids") \
            if os.path.exists(os.path.join(tmp, "default", "run.json")) else None
        if none != []:
            failures.append(f"a run with no test aid: run.json test_aids {none}")

        p = run(["serve", "-q", "-o", os.path.join(tmp, "serve"), "-s", AIDS[0], "--no-precondition",
                 "-s", "nand.blocks_per_plane=64"])
        checks += 1
        if p.returncode != 2 or "--test-aids" not in p.stderr:
            failures.append(f"serve with {AIDS[0]}: exit {p.returncode}, {p.stderr[-300:]!r}")
    for f in failures:
        print("FAIL:", f)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
