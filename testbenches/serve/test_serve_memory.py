#!/usr/bin/env python3
"""What `ssdvp serve` costs in host memory: the default platform (16 GiB of NAND), full and aged by
its preconditioning, served; a client writes 64 MiB of random bytes and reads them back.

Preconditioning's sectors are zeros and cost no payload memory; the client's bytes go to sparse
files (unlinked at once, so none is left behind).  The run's peak RSS stays under 1 GiB (with a
payload buffer per programmed block it would be the drive's 16 GiB).
Exits non-zero naming every failed check.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from small_platform import report  # noqa: E402

import nbd  # noqa: E402  (python3-libnbd)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_process  # noqa: E402

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
MiB = 1024 * 1024


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="ssdvp-serve-mem-") as tmp:
        p, uri = serve_process.start(BINARY, tmp, ["--linger", "0", "-s", "sim.progress=false"])
        h = nbd.NBD()
        h.connect_uri(uri)
        data = os.urandom(MiB)
        for i in range(64):
            h.pwrite(data, i * 7 * MiB)
        h.flush()
        bad = sum(h.pread(MiB, i * 7 * MiB) != data for i in range(64))
        if bad:
            failures.append(f"{bad} of 64 MiB read back wrong")
        h.shutdown()
        out, err = p.communicate(timeout=600)
        if p.returncode != 0:
            failures.append(f"ssdvp serve exited {p.returncode}: {err[-1000:]}")
        r = json.load(open(os.path.join(tmp, "run.json")))
        rss = r["host_peak_rss_mib"]
        print(f"16 GiB drive, preconditioned, 64 MiB written: peak RSS {rss:.0f} MiB")
        if rss > 1024:
            failures.append(f"peak RSS {rss:.0f} MiB for a served 16 GiB drive (at most 1,024)")
        left = os.listdir(os.path.join(tmp, "data")) if os.path.isdir(os.path.join(tmp, "data")) else []
        if left:
            failures.append(f"payload files left behind: {left[:3]}")
    return report("ssdvp serve memory", failures)


if __name__ == "__main__":
    sys.exit(main())
