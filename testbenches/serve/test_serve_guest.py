#!/usr/bin/env python3
"""A file system on the simulated drive: a QEMU guest (Debian's kernel, a busybox initramfs, TCG)
whose virtio disk is `ssdvp serve`'s export, on the small platform (preconditioned, aged).

1. mkfs.ext4, six files of random data, unmount, power off: the drive is saved at the end.
2. The same drive exported again (--power-on OUT/power-off): e2fsck -fn finds nothing, every
   file's md5 equal.
3. A crash: mkfs.ext4, six files each written with fsync, then a burst of fsync'ed writes; the
   power is cut (SIGUSR1, --power-cut signal-in-write) two seconds into the burst, with a write
   in flight: the cut must have caught writes the drive could lose (run.json power_cut:
   writes_in_flight + writes_acknowledged_not_durable > 0), else it tested nothing.
4. The recovered drive exported again (--power-on OUT/power-cut): e2fsck -fy fixes at most the
   free block and inode counts (which ext4 does not keep exact in the superblock), and says
   whether it replayed the journal (the file system was mounted at the cut: it must); a second
   e2fsck -fn finds nothing; every file fsync'ed before the cut has its md5; the durability
   checker loses no sector.
Exits non-zero naming every failed check.
"""
import json
import os
import signal
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from small_platform import SMALL, report  # noqa: E402
import guest  # noqa: E402
import serve_process  # noqa: E402

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
ALLOWED_FIXES = ("Free blocks count wrong", "Free inodes count wrong")


def serve(out, extra):
    return serve_process.start(BINARY, out, SMALL + extra)[0]


def finish(p, what, failures):
    out, err = p.communicate(timeout=300)
    if p.returncode != 0:
        failures.append(f"{what}: ssdvp serve exited {p.returncode}: {err[-1500:]}")


def fixes(lines, start):
    """The lines e2fsck asked "Fix? yes" about, from the line after `start` on."""
    out, seen = [], False
    for k, line in enumerate(lines):
        seen = seen or line.startswith(start)
        if seen and line.strip() == "Fix? yes" and k > 0:
            out.append(lines[k - 1].strip())
    return out


def main():
    lacking = guest.missing()
    if lacking:
        return report("file system on ssdvp serve", [f"the guest needs {lacking} (scripts/setup.sh all installs them)"])
    failures = []
    with guest.tempdir() as tmp:
        initrd = os.path.join(tmp, "initrd.gz")
        guest.build_initramfs(initrd)

        # 1-2: a clean power-off, exported again.
        a = os.path.join(tmp, "a")
        p = serve(a, [])
        lines = guest.run(initrd, os.path.join(a, "nbd.sock"), "mkfs")
        finish(p, "mkfs", failures)
        written = guest.parse(lines, "SUM")
        if len(written) != guest.FILES or "UMOUNT ok" not in lines:
            failures.append(f"mkfs phase: {len(written)} files, console tail: {lines[-15:]}")
        b = os.path.join(tmp, "b")
        p = serve(b, ["--power-on", os.path.join(a, "power-off"), "--no-save"])
        lines = guest.run(initrd, os.path.join(b, "nbd.sock"), "check")
        finish(p, "check", failures)
        if guest.value(lines, "FSCK") != 0:
            failures.append(f"after a clean power-off, e2fsck -fn: {lines[-20:]}")
        if guest.parse(lines, "SUM") != written:
            failures.append(f"after a clean power-off the files differ: {guest.parse(lines, 'SUM')} vs {written}")

        # 3-4: a power cut in a burst of writes, recovered.
        c = os.path.join(tmp, "c")
        p = serve(c, ["--power-cut", "signal-in-write"])

        def on_line(line, qemu):
            if line.strip() == "BURST":
                threading.Timer(2.0, lambda: p.send_signal(signal.SIGUSR1)).start()
                threading.Timer(30.0, qemu.kill).start()   # its disk is gone: nothing more to see

        lines = guest.run(initrd, os.path.join(c, "nbd.sock"), "crash", on_line=on_line)
        finish(p, "crash", failures)
        synced = guest.parse(lines, "SYNCED")
        cut = json.load(open(os.path.join(c, "run.json"))).get("power_cut", {})
        if len(synced) != guest.FILES or "BURST" not in lines or cut.get("cause") != "SIGUSR1":
            failures.append(f"crash phase: {len(synced)} files synced, cut {cut.get('cause')}, console: {lines[-10:]}")
        caught = cut.get("writes_in_flight", 0) + cut.get("writes_acknowledged_not_durable", 0)
        print(f"the cut caught {cut.get('writes_in_flight')} writes in flight and "
              f"{cut.get('writes_acknowledged_not_durable')} acknowledged but not durable")
        if caught == 0:
            failures.append(f"the cut caught no write the drive could lose: it tested nothing ({cut})")
        d = os.path.join(tmp, "d")
        p = serve(d, ["--power-on", os.path.join(c, "power-cut"), "--no-save"])
        lines = guest.run(initrd, os.path.join(d, "nbd.sock"), "recover")
        finish(p, "recover", failures)
        fix_rc, rc = guest.value(lines, "FSCK-FIX"), guest.value(lines, "FSCK")
        unexpected = [f for f in fixes(lines, "FSCK-FIX") if not f.startswith(ALLOWED_FIXES)]
        replayed = any("recovering journal" in line for line in lines)
        print(f"after the cut ({cut.get('into_workload_s', 0):.3f} s simulated into the run): e2fsck -fy {fix_rc}, "
              f"journal replayed: {'yes' if replayed else 'no'}, fixes {fixes(lines, 'FSCK-FIX')}, e2fsck -fn {rc}")
        if not replayed:
            failures.append("e2fsck replayed no journal: the file system mounted at the cut came back clean")
        if fix_rc not in (0, 1) or rc != 0 or unexpected:
            failures.append(f"after the cut: e2fsck -fy {fix_rc}, -fn {rc}, unexpected repairs {unexpected}")
        if guest.parse(lines, "SUM") != synced:
            failures.append(f"files fsync'ed before the cut differ: {guest.parse(lines, 'SUM')} vs {synced}")
        check = json.load(open(os.path.join(d, "run.json")))["recovery"]["check"]
        print(f"durability check: {check['sectors_checked']} sectors read back, {check['lost']} lost")
        if check["lost"] or check["sectors_checked"] == 0:
            failures.append(f"durability check after the cut: {check}")
    return report("file system on ssdvp serve", failures)


if __name__ == "__main__":
    sys.exit(main())
