#!/usr/bin/env python3
"""What `ssdvp` prints to a person, as a newcomer meets it (issue: the SystemC banner, -q, --version).

* No SystemC copyright banner on any command: --help, config-doc, a configuration error, a run.
* `ssdvp --version` names ssdvp's version and build, SystemC, Verilator, Unicorn and the
  firmware image's fingerprint.
* `ssdvp run -q` prints nothing but errors: no summary, no progress lines, even on a run long
  enough for them (stderr to a file); without -q progress goes only to a terminal (stderr to a
  file gets none); `--progress` asks for it anyway, a whole line each (no carriage returns).
* A zoned drive (device.interface = zns): `ssdvp run` with a zoned fio job prints its summary
  with zone resets; its default (conventional) workload and `ssdvp serve` are refused, naming why.
Exits non-zero naming every failed check.
"""
import os
import subprocess
import sys
import tempfile

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
# Long enough for progress lines (one every 2 wall seconds, looked at every 4,096 requests).
LONG = ["-s", "precondition.fill=0", "-w", "fio:rw=randwrite,bs=4k,io=600000"]


def run(args):
    return subprocess.run([BINARY] + args, capture_output=True, text=True, timeout=300)


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="ssdvp-cli-") as tmp:
        for args in (["--help"], ["config-doc"], ["run", "-s", "nand.channels=0"],
                     ["run", "-o", tmp + "/small", "-s", "precondition.fill=0", "-w", "fio:rw=randread,io=100"]):
            p = run(args)
            if "Copyright" in p.stdout + p.stderr or "SystemC 2.3" in p.stdout + p.stderr:
                failures.append(f"ssdvp {' '.join(args)} printed the SystemC banner: {(p.stdout + p.stderr)[:200]!r}")

        v = run(["--version"])
        if v.returncode != 0:
            failures.append(f"ssdvp --version exited {v.returncode}: {v.stderr}")
        for want in ("ssdvp ", "build ", "SystemC 2.3", "Verilator ", "Unicorn ", "firmware image "):
            if not any(line.startswith(want) for line in v.stdout.splitlines()):
                failures.append(f"ssdvp --version has no line starting {want!r}: {v.stdout!r}")

        quiet = run(["run", "-q", "-o", tmp + "/q"] + LONG)
        if quiet.returncode != 0 or quiet.stdout or quiet.stderr:
            failures.append(f"ssdvp run -q printed something (exit {quiet.returncode}): "
                            f"stdout {quiet.stdout[:200]!r}, stderr {quiet.stderr[:200]!r}")

        plain = run(["run", "-o", tmp + "/plain"] + LONG)
        if "requests," in plain.stderr:
            failures.append(f"progress lines went to stderr that is not a terminal: {plain.stderr[:200]!r}")
        if "results:" not in plain.stdout:
            failures.append(f"ssdvp run printed no summary: {plain.stdout[:200]!r}")

        asked = run(["run", "--progress", "-o", tmp + "/progress"] + LONG)
        lines = [line for line in asked.stderr.split("\n") if "requests," in line]
        if not lines:
            failures.append(f"--progress printed no progress line (the run took too little wall time?): {asked.stderr!r}")
        if "\r" in asked.stderr:
            failures.append(f"--progress to a file rewrote its line with carriage returns: {asked.stderr[:200]!r}")
        # Each line says how far the run is (600,000 requests known in advance) and how long is left,
        # and the share grows.
        shares = []
        for line in lines:
            head = line.strip().split("%, about ")
            if len(head) != 2 or not head[0].isdigit() or " s left; " not in head[1]:
                failures.append(f"a progress line without its percentage and time left: {line!r}")
            else:
                shares.append(int(head[0]))
                done = int(head[1].split(" s left; ")[1].split()[0])
                if abs(done / 600000 * 100 - shares[-1]) > 1:
                    failures.append(f"{line!r}: {shares[-1]}% is not {done} of 600000 requests")
        if shares != sorted(shares):
            failures.append(f"the percentages do not grow: {shares}")
        pre = run(["run", "--progress", "-o", tmp + "/pre", "-w", "fio:rw=randread,io=100"])
        if "preconditioning: " not in pre.stderr or "by the firmware (functional" not in pre.stderr:
            failures.append(f"--progress said nothing of the preconditioning: {pre.stderr[:300]!r}")

        zns = ["-s", "device.interface=zns", "-s", "nand.blocks_per_plane=16"]
        z = run(["run", "-o", tmp + "/zns"] + zns + ["-w", "fio:rw=randrw,zonemode=zbd,bs=64k,iodepth=4,io=24000"])
        if z.returncode != 0 or "zone_reset" not in z.stdout or " 0 mismatches" not in z.stdout:
            failures.append(f"ssdvp run on a zoned drive (exit {z.returncode}): {z.stdout[-600:]!r} {z.stderr[-300:]!r}")
        for args, why in ((["run", "-o", tmp + "/zns2"] + zns, "zonemode=zbd"),
                          (["serve", "-o", tmp + "/zns3"] + zns, "NBD has no zone commands")):
            p = run(args)
            if p.returncode == 0 or why not in p.stderr:
                failures.append(f"ssdvp {' '.join(args)} was not refused with {why!r}: exit {p.returncode}, {p.stderr[-300:]!r}")

    for f in failures:
        print("FAIL:", f)
    print("cli output: every check passed" if not failures else f"cli output: {len(failures)} checks failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
