#!/usr/bin/env python3
"""A power cut on a live export (`ssdvp serve --power-cut`, then `--power-on`), small platform.

A client writes 8 MiB of random bytes and flushes, then keeps writing 1 MiB requests without
flushing until the cut drops its connection (ENOTCONN: requests in flight are never answered).
The recovered drive is served again: the flushed 8 MiB read back byte for byte, and the
durability checker finds no sector lost among all it read (run.json recovery check); it writes
4 MiB more and powers off, and a third power cycle finds both the old and the new data, its
durability record carried forward. A cut given
as random:SEED is refused (a live export has no uncut run to draw from).
Exits non-zero naming every failed check.
"""
import errno
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from small_platform import SMALL, report  # noqa: E402

import nbd  # noqa: E402  (python3-libnbd)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_process  # noqa: E402

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
MiB = 1024 * 1024


def serve(out, extra):
    p, uri = serve_process.start(BINARY, out, ["--linger", "0"] + SMALL + extra)
    h = nbd.NBD()
    h.connect_uri(uri)
    return p, h


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="ssdvp-serve-cut-") as tmp:
        bad = subprocess.run([BINARY, "serve", "-o", tmp + "/bad", "--power-cut", "random:3"] + SMALL,
                             capture_output=True, text=True, timeout=60)
        if bad.returncode == 0 or "random" not in bad.stderr:
            failures.append(f"--power-cut random:3 was not refused: {bad.returncode} {bad.stderr[-300:]!r}")

        cut_dir = os.path.join(tmp, "cut")
        p, h = serve(cut_dir, ["--power-cut", "1s"])
        flushed = os.urandom(8 * MiB)
        h.pwrite(flushed[:4 * MiB], 0)
        h.pwrite(flushed[4 * MiB:], 4 * MiB)
        h.flush()
        dropped = None
        for i in range(2000):
            try:
                h.pwrite(os.urandom(MiB), 16 * MiB + (i % 64) * MiB)
            except nbd.Error as e:
                dropped = (i, e.errnum)
                break
        out, err = p.communicate(timeout=300)
        if dropped is None:
            failures.append("2 GiB of writes went through: the power was not cut")
        elif dropped[1] not in (errno.ENOTCONN, errno.ECONNRESET, errno.EPIPE, errno.ESHUTDOWN):
            failures.append(f"the dropped client got error {dropped[1]} ({errno.errorcode.get(dropped[1])}), not a "
                            "closed connection (ENOTCONN, ECONNRESET, EPIPE or ESHUTDOWN)")
        else:
            print(f"the dropped client got {errno.errorcode[dropped[1]]}")
        print(f"the cut dropped the connection after {dropped[0] if dropped else '-'} MiB more")
        if p.returncode != 0 or not os.path.exists(os.path.join(cut_dir, "power-cut", "nand.img")):
            failures.append(f"the cut run exited {p.returncode} without an image: {err[-1000:]}")
            return report("ssdvp serve power cut", failures)
        if json.load(open(os.path.join(cut_dir, "run.json")))["serve"]["end"] != "the power cut":
            failures.append("run.json serve.end does not name the power cut")

        on_dir = os.path.join(tmp, "on")
        p, h = serve(on_dir, ["--power-on", os.path.join(cut_dir, "power-cut")])
        got = h.pread(4 * MiB, 0) + h.pread(4 * MiB, 4 * MiB)
        if got != flushed:
            failures.append("the 8 MiB flushed before the cut do not read back as written")
        for i in range(64):
            h.pread(MiB, 16 * MiB + i * MiB)
        later = os.urandom(4 * MiB)   # written after the recovery, then the drive powers off
        h.pwrite(later, 96 * MiB)
        h.flush()
        h.shutdown()
        out, err = p.communicate(timeout=300)
        if p.returncode != 0:
            failures.append(f"the power-on run exited {p.returncode}: {err[-1000:]}")
        r = json.load(open(os.path.join(on_dir, "run.json")))
        check = r["recovery"]["check"]
        print(f"after the cut: {check['sectors_checked']} sectors read back, {check['lost']} lost, "
              f"{check['newer_than_durable']} newer than their durable write")
        if check["sectors_checked"] < (8 + 64) * 256 or check["lost"] != 0:
            failures.append(f"recovery check: {check}")

        # The recovered drive, written and powered off, served a third time: its record carries
        # the cut's forward with the new writes on top.
        again_dir = os.path.join(tmp, "again")
        p, h = serve(again_dir, ["--power-on", os.path.join(on_dir, "power-off"), "--no-save"])
        if h.pread(4 * MiB, 0) + h.pread(4 * MiB, 4 * MiB) != flushed:
            failures.append("the 8 MiB flushed before the cut are gone after a second power cycle")
        if h.pread(4 * MiB, 96 * MiB) != later:
            failures.append("the 4 MiB written after the recovery are gone after the power-off")
        for i in range(64):
            h.pread(MiB, 16 * MiB + i * MiB)
        h.shutdown()
        out, err = p.communicate(timeout=300)
        if p.returncode != 0:
            failures.append(f"the third power cycle exited {p.returncode}: {err[-1000:]}")
        check = json.load(open(os.path.join(again_dir, "run.json")))["recovery"]["check"]
        print(f"after the power-off: {check['sectors_checked']} sectors read back, {check['lost']} lost")
        if check["sectors_checked"] < (8 + 4 + 64) * 256 or check["lost"] != 0:
            failures.append(f"recovery check after the power-off: {check}")
    return report("ssdvp serve power cut", failures)


if __name__ == "__main__":
    sys.exit(main())
