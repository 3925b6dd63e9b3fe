"""A QEMU guest for the serve tests: Debian's kernel (linux-image-amd64) with a small initramfs
(busybox-static, e2fsprogs' mke2fs and e2fsck with their libraries, the virtio and ext4
modules), booted by qemu-system-x86_64 (TCG: KVM nested in a VM is not always usable) with a virtio
disk on an NBD export.  Its /init runs one phase, named on the kernel command line, prints what
it found on the serial console and powers off.

Phases (the disk is /dev/vda):
  mkfs      mkfs.ext4, write FILES files of random data, print "SUM name md5" for each, unmount
  check     /sbin/e2fsck -fn (print "FSCK rc"), mount read-only, print "SUM" for each file
  crash     mkfs.ext4, write FILES files each with fsync and print "SYNCED name md5", then print
            "BURST" and write without end (the power is cut under it)
  recover   e2fsck -fy (print "FSCK-FIX rc"), e2fsck -fn (print "FSCK rc"), mount, "SUM" each
"""
import glob
import gzip
import io
import os
import shutil
import subprocess
import tempfile
import threading

FILES = 6

INIT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules.order); do insmod /$m 2>/dev/null; done
phase=$(sed -n 's/.*ssdvp=\([a-z]*\).*/\1/p' /proc/cmdline)
n=0
while [ ! -b /dev/vda ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done
echo "PHASE $phase"
sums() { for f in /mnt/f*; do echo "SUM $(basename $f) $(md5sum < $f | cut -d' ' -f1)"; done; }
case "$phase" in
  mkfs)
    /sbin/mke2fs -q -F -t ext4 /dev/vda && mount -t ext4 /dev/vda /mnt || echo "FAILED mkfs/mount"
    for i in $(seq 1 FILES); do dd if=/dev/urandom of=/mnt/f$i bs=64k count=$((8 + i * 3)) 2>/dev/null; done
    sync; sums; umount /mnt && echo "UMOUNT ok" ;;
  check)
    /sbin/e2fsck -fn /dev/vda > /tmp/fsck.log 2>&1; echo "FSCK $?"; cat /tmp/fsck.log
    mount -t ext4 -o ro /dev/vda /mnt && sums; umount /mnt ;;
  crash)
    /sbin/mke2fs -q -F -t ext4 /dev/vda && mount -t ext4 /dev/vda /mnt || echo "FAILED mkfs/mount"
    for i in $(seq 1 FILES); do
      dd if=/dev/urandom of=/mnt/f$i bs=64k count=$((8 + i * 3)) conv=fsync 2>/dev/null
      echo "SYNCED f$i $(md5sum < /mnt/f$i | cut -d' ' -f1)"
    done
    sync; echo "BURST"
    i=0; while true; do dd if=/dev/urandom of=/mnt/burst$((i % 8)) bs=256k count=8 conv=fsync 2>/dev/null; i=$((i+1)); done ;;
  recover)
    /sbin/e2fsck -fy /dev/vda > /tmp/fsck.log 2>&1; echo "FSCK-FIX $?"; cat /tmp/fsck.log
    /sbin/e2fsck -fn /dev/vda > /tmp/fsck2.log 2>&1; echo "FSCK $?"; cat /tmp/fsck2.log
    mount -t ext4 /dev/vda /mnt && sums; umount /mnt ;;
esac
echo "SSDVP-GUEST-DONE"
poweroff -f
""".replace("FILES", str(FILES))


def kernel():
    """(kernel version, vmlinuz path) of Debian's linux-image-amd64, or None."""
    for vmlinuz in sorted(glob.glob("/boot/vmlinuz-*-amd64"), reverse=True):
        ver = vmlinuz.split("vmlinuz-", 1)[1]
        if os.path.isdir(f"/lib/modules/{ver}"):
            return ver, vmlinuz
    return None


def missing():
    """What the guest needs and this machine lacks ("" if nothing)."""
    need = [p for p in ("qemu-system-x86_64", "busybox", "mke2fs", "e2fsck", "modprobe") if not shutil.which(p)]
    if not kernel():
        need.append("linux-image-amd64 (/boot/vmlinuz-*-amd64 with its modules)")
    elif not os.access(kernel()[1], os.R_OK):
        need.append(f"read access to {kernel()[1]}")
    return ", ".join(need)


def _cpio(entries):
    """newc cpio of (name, mode, data) entries (directories: data None)."""
    out = io.BytesIO()

    def put(name, mode, data, ino):
        data = data or b""
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join(f"{v:08X}" for v in (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0))
        out.write(hdr.encode() + name_b)
        out.write(b"\0" * (-(110 + len(name_b)) % 4))
        out.write(data)
        out.write(b"\0" * (-len(data) % 4))

    for i, (name, mode, data) in enumerate(entries):
        put(name, mode, data, i + 1)
    put("TRAILER!!!", 0, b"", 0)
    return out.getvalue()


def build_initramfs(path):
    ver, _ = kernel()
    entries, dirs = [], set()

    def add_dir(d):
        parts = d.strip("/").split("/")
        for k in range(1, len(parts) + 1):
            sub = "/".join(parts[:k])
            if sub and sub not in dirs:
                dirs.add(sub)
                entries.append((sub, 0o40755, None))

    def add_file(src, dst, mode=0o100755):
        add_dir(os.path.dirname(dst))
        with open(src, "rb") as f:
            entries.append((dst.lstrip("/"), mode, f.read()))

    for d in ("bin", "sbin", "proc", "sys", "dev", "mnt", "tmp", "lib64", "lib/x86_64-linux-gnu"):
        add_dir(d)
    add_file(shutil.which("busybox"), "/bin/busybox")
    libs = set()
    for prog in ("mke2fs", "e2fsck"):
        exe = shutil.which(prog)
        add_file(exe, "/sbin/" + prog)
        for line in subprocess.run(["ldd", exe], capture_output=True, text=True).stdout.splitlines():
            parts = line.split()
            lib = parts[2] if "=>" in parts and len(parts) > 2 else parts[0]
            if lib.startswith("/"):
                libs.add(lib)
    for lib in sorted(libs):
        add_file(os.path.realpath(lib), lib)
    order = []
    for mod in ("virtio_pci", "virtio_blk", "crc32c_generic", "ext4"):
        dep = subprocess.run(["modprobe", "-S", ver, "--show-depends", mod], capture_output=True, text=True, check=True)
        for line in dep.stdout.splitlines():
            ko = line.split()[1]
            if ko not in order:
                order.append(ko)
    for ko in order:
        add_file(ko, ko, 0o100644)
    entries.append(("modules.order", 0o100644, "\n".join(o.lstrip("/") for o in order).encode() + b"\n"))
    entries.append(("init", 0o100755, INIT.encode()))
    with open(path, "wb") as f:
        f.write(gzip.compress(_cpio(entries), compresslevel=1))


def run(initramfs, socket_path, phase, timeout=300, on_line=None):
    """Boots the guest on the export at socket_path; returns its console output.  on_line(line,
    proc) is called for each console line (the crash test cuts the power on "BURST")."""
    _, vmlinuz = kernel()
    accel = ["-accel", "tcg"]   # (KVM nested in a VM is not always usable: TCG everywhere, the same in CI)
    cmd = ["qemu-system-x86_64", "-nodefaults", "-nographic", "-no-reboot", "-m", "256", "-smp", "1", *accel,
           "-kernel", vmlinuz, "-initrd", initramfs, "-serial", "stdio",
           "-append", f"console=ttyS0 panic=-1 loglevel=3 ssdvp={phase}",
           "-drive", f"file=nbd+unix:///ssdvp?socket={socket_path},format=raw,if=virtio,cache=none"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    lines = []
    watchdog = threading.Timer(timeout, p.kill)   # a guest that hangs is killed, its output kept
    watchdog.start()
    try:
        for line in p.stdout:
            lines.append(line.rstrip("\r\n"))
            if on_line:
                on_line(lines[-1], p)
        p.wait(timeout=timeout)
    finally:
        watchdog.cancel()
        if p.poll() is None:
            p.kill()
            p.wait()
    return lines


def parse(lines, key):
    """{name: md5} from "KEY name md5" lines."""
    out = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[0] == key:
            out[parts[1]] = parts[2]
    return out


def value(lines, key):
    """The number after "KEY" (the first such line), or None."""
    for line in lines:
        parts = line.split()
        if len(parts) == 2 and parts[0] == key and parts[1].isdigit():
            return int(parts[1])
    return None


def tempdir():
    return tempfile.TemporaryDirectory(prefix="ssdvp-guest-")
