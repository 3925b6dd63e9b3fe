#!/usr/bin/env python3
"""`ssdvp serve` with real NBD clients (libnbd's Python binding, a raw socket, fio's nbd engine),
on the small platform with its default preconditioning (the drive full and aged: GC runs).

* The export: its size is the drive's namespace, its block sizes 4 KiB.
* Real data: random bytes (every byte of each sector, the first 8 too) written in 4 KiB to 1 MiB
  requests, with and without FUA, read back equal; more than the drive's logical space is
  written so GC moves data; a second connection (multi-conn) sees the first's writes; a
  preconditioned sector reads as zeros; WRITE_ZEROES reads back zeros; a TRIMmed sector reads
  zeros (the drive unmaps it); FLUSH succeeds.
* Bad requests: past the end (EINVAL, ENOSPC for a write), not 4 KiB aligned (EINVAL): refused,
  the drive never sees them, and the connection that sent them still reads what was written; a
  client sending a bad magic is dropped with a line naming it, the others go on; a client that
  drops its connection in the middle of a write's data changes nothing.
* fio (ioengine=nbd) writes and verifies its own pattern over the export.
* Several connections use several host threads and so several NVMe queues.
* The run ends at the last disconnect: run.json completed, every read's tags checked (no
  mismatch), the serve section's counts.
Exits non-zero naming every failed check.
"""
import errno
import json
import os
import random
import socket
import struct
import subprocess
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
    return serve_process.start(BINARY, tmp, SMALL + list(extra))


def connect(uri, strict=True):
    h = nbd.NBD()
    if not strict:
        h.set_strict_mode(0)   # let bad requests reach the server
    h.connect_uri(uri)
    return h


def error_of(fn):
    try:
        fn()
    except nbd.Error as e:
        return e.errnum
    return 0


def main():
    failures = []
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="ssdvp-serve-") as tmp:
        p, uri = start(tmp)
        try:
            h = connect(uri)
            size = h.get_size()
            if size % (4 * KiB) or size < 64 * MiB:
                failures.append(f"export size {size}: not a positive multiple of 4 KiB")
            for kind, want in ((nbd.SIZE_MINIMUM, 4096), (nbd.SIZE_PREFERRED, 4096)):
                got = h.get_block_size(kind)
                if got != want:
                    failures.append(f"block size {kind}: {got}, not {want}")
            if not h.can_multi_conn() or not h.can_fua() or not h.can_trim() or not h.can_zero() or not h.can_flush():
                failures.append("the export should offer multi-conn, FUA, trim, write zeroes and flush")

            # A preconditioned sector reads zeros.
            if h.pread(4 * KiB, size - 8 * KiB) != bytes(4 * KiB):
                failures.append("a preconditioned sector does not read as zeros")

            # Real data: a model of what the drive holds, checked at the end; more than the
            # logical space written (GC moves the data).
            model = {}   # 4 KiB block -> bytes
            blocks = size // (4 * KiB)
            written = 0
            while written < size + size // 4:
                n = rng.choice([1, 1, 4, 16, 64, 256])
                b = rng.randrange(0, blocks - n + 1)
                data = rng.randbytes(n * 4 * KiB)
                h.pwrite(data, b * 4 * KiB, nbd.CMD_FLAG_FUA if rng.random() < 0.05 else 0)
                for k in range(n):
                    model[b + k] = data[k * 4 * KiB:(k + 1) * 4 * KiB]
                written += len(data)
                if rng.random() < 0.01:
                    h.flush()
            h.flush()
            # Write zeroes and trim on known places.
            zb = rng.choice(list(model))
            h.zero(8 * KiB, zb * 4 * KiB) if zb + 2 <= blocks else None
            if zb + 2 <= blocks:
                model[zb] = bytes(4 * KiB)
                model[zb + 1] = bytes(4 * KiB)
            # Trim 16 KiB that hold data (written and flushed here, so that the zeros it must read
            # afterwards are not the zeros of a sector never written).
            tb = rng.randrange(0, blocks - 4)
            h.pwrite(os.urandom(16 * KiB), tb * 4 * KiB)
            h.flush()
            if h.pread(16 * KiB, tb * 4 * KiB) == bytes(16 * KiB):
                failures.append("16 KiB of random bytes read back as zeros before the trim")
            h.trim(16 * KiB, tb * 4 * KiB)
            for k in range(4):
                model[tb + k] = bytes(4 * KiB)   # a trimmed sector is unmapped: it reads zeros

            # A second connection sees the first's data.
            h2 = connect(uri)
            bad = 0
            for b, data in sorted(model.items()):
                got = h2.pread(4 * KiB, b * 4 * KiB) if b % 2 else h.pread(4 * KiB, b * 4 * KiB)
                if got != data:
                    bad += 1
                    if bad <= 3:
                        first = next(i for i in range(len(data)) if got[i] != data[i])
                        failures.append(f"block {b}: read back differs from what was written from byte {first}")
            if bad:
                failures.append(f"{bad} of {len(model)} blocks read back wrong")

            # Bad requests reach the server and are refused.
            raw = connect(uri, strict=False)
            for what, fn, want in (
                    ("read past the end", lambda: raw.pread(4 * KiB, size), errno.EINVAL),
                    ("write past the end", lambda: raw.pwrite(bytes(4 * KiB), size - 0), errno.ENOSPC),
                    ("read straddling the end", lambda: raw.pread(8 * KiB, size - 4 * KiB), errno.EINVAL),
                    ("misaligned read", lambda: raw.pread(4 * KiB, 512), errno.EINVAL),
                    ("misaligned write", lambda: raw.pwrite(bytes(1000), 4 * KiB), errno.EINVAL)):
                got = error_of(fn)
                if got != want:
                    failures.append(f"{what}: error {got}, not {want}")
            probe = min(model)
            if raw.pread(4 * KiB, probe * 4 * KiB) != model[probe]:
                failures.append("the connection that sent bad requests no longer reads what was written")
            raw.shutdown()

            # A client that breaks the protocol is dropped; the others go on.
            s = socket.socket(socket.AF_UNIX)
            s.connect(uri.split("socket=", 1)[1])
            s.recv(18)
            s.sendall(struct.pack(">I", 1))                 # client flags: fixed newstyle
            s.sendall(struct.pack(">QII", 0x49484156454F5054, 7, 0))   # a malformed NBD_OPT_GO
            s.recv(4096)
            s.sendall(struct.pack(">QII", 0x1234, 1, 0))    # a bad option magic
            s.settimeout(10)
            if s.recv(4096) != b"":
                failures.append("a client with a bad option magic was not disconnected")
            s.close()
            # A client that drops its connection in the middle of a write's data: nothing of it
            # reaches the drive, the others go on.
            s = socket.socket(socket.AF_UNIX)
            s.connect(uri.split("socket=", 1)[1])
            s.recv(18)
            s.sendall(struct.pack(">I", 3))                 # fixed newstyle, no zeroes
            s.sendall(struct.pack(">QII", 0x49484156454F5054, 1, 0))   # NBD_OPT_EXPORT_NAME ""
            s.recv(10)
            before = h.pread(8 * KiB, 0)
            s.sendall(struct.pack(">IHHQQI", 0x25609513, 0, 1, 1, 0, 8 * KiB) + b"\xab" * 100)
            s.close()
            time.sleep(0.5)
            if h.pread(8 * KiB, 0) != before:
                failures.append("a write whose client dropped the connection mid-data changed the drive")
            if h.pread(4 * KiB, probe * 4 * KiB) != model[probe]:
                failures.append("the drive no longer reads what was written after a bad client")
            h2.shutdown()

            # fio writes and verifies its own pattern (its nbd engine, through libnbd).
            fio = subprocess.run(["fio", "--name=serve", "--ioengine=nbd", f"--uri={uri}", "--rw=randwrite", "--bs=16k",
                                  "--size=32m", "--offset=0", "--iodepth=16", "--verify=crc32c", "--do_verify=1",
                                  "--output-format=json"], capture_output=True, text=True, timeout=600, cwd=tmp)
            if fio.returncode != 0:
                failures.append(f"fio exited {fio.returncode}: {fio.stderr[-500:]}")
            else:
                out = fio.stdout[fio.stdout.find("{"):]   # (fio may print notes before its JSON)
                job = json.loads(out)["jobs"][0]
                if job["error"] != 0 or job["write"]["io_bytes"] != 32 * MiB or job["read"]["io_bytes"] != 32 * MiB:
                    failures.append(f"fio: error {job['error']}, wrote {job['write']['io_bytes']} and verified "
                                    f"{job['read']['io_bytes']} bytes, not 32 MiB each")
            h.shutdown()
            out, err = p.communicate(timeout=300)
        except Exception:
            p.kill()
            raise
        if p.returncode != 0:
            failures.append(f"ssdvp serve exited {p.returncode}: {err[-2000:]}")
        if "client" not in err or "magic" not in err:
            failures.append(f"no line on stderr names the bad client: {err[-500:]!r}")
        r = json.load(open(os.path.join(tmp, "run.json")))
        if not r["completed"]:
            failures.append(f"run.json: not completed: {r['errors']}")
        integ = r["integrity"]
        if integ.get("mismatches", 1) != 0 or integ.get("reads_checked", 0) == 0:
            failures.append(f"run.json integrity: {integ}")
        if r["ftl"]["gc_copied_sectors"] < 1000:
            failures.append(f"GC copied {r['ftl']['gc_copied_sectors']} sectors: the data read back did not move")
        print(f"wrote {r['serve']['bytes_written'] / MiB:.0f} MiB, read {r['serve']['bytes_read'] / MiB:.0f} MiB, "
              f"GC copied {r['ftl']['gc_copied_sectors']} sectors, {integ['reads_checked']} reads' tags checked")
        used = [q for q, n in enumerate(r["host"]["commands_per_queue"]) if n > 0]
        if len(used) < 3:   # connections 0, 1 and 2 at least sent requests (more with fio's)
            failures.append(f"the connections used NVMe queues {used} only: {r['host']['commands_per_queue']}")
        s = r["serve"]
        if s["connections"] < 5 or s["refused"] < 5 or s["protocol_errors"] < 1 or s["drive_errors"] != 0:
            failures.append(f"run.json serve: {s}")
        if s["end"] != "the last client disconnected":
            failures.append(f"the run ended on {s['end']!r}")
    return report("ssdvp serve over NBD", failures)


if __name__ == "__main__":
    sys.exit(main())
