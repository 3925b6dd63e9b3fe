#!/usr/bin/env python3
"""Where `ssdvp serve` listens and writes, as a new user gets it wrong (small platform, empty
drive). Each bad path is refused at once, before the drive is built, with exit 2 and one line
naming the path and what is there; nothing that was there is removed or taken over.

* --socket at a regular file: refused, the file untouched; at a folder, in a folder that does
  not exist, or longer than a Unix socket allows: refused.
* --socket where another server answers: refused, and that server still answers.
* --socket at a stale socket (one no server answers on): taken, served.
* Two servers one after the other on a path whose socket was removed under the first: when the
  first ends it leaves the second's socket alone (it removes only the socket it made).
* --tcp on a port another process listens on: refused.
* -o at a regular file: refused at once (not after the run).
Exits non-zero naming every failed check.
"""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from small_platform import SMALL, report  # noqa: E402
import serve_process  # noqa: E402

BINARY = os.environ.get("SSDVP_BINARY") or sys.argv[1]
FAST = SMALL + ["--no-precondition", "--linger", "0"]
checks = []


def refused(what, args, words, failures):
    t = time.monotonic()
    p = subprocess.run([BINARY, "serve"] + args + FAST, capture_output=True, text=True, timeout=120)
    wall = time.monotonic() - t
    checks.append(what)
    if p.returncode != 2 or words not in p.stderr or len(p.stderr.strip().splitlines()) != 1:
        failures.append(f"{what}: exit {p.returncode}, stderr {p.stderr.strip()[-300:]!r} (want 2 and one line with "
                        f"{words!r})")
    else:
        print(f"{what}: refused in {wall:.2f} s: {p.stderr.strip()}")


def answers(path):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
        return True
    except OSError:
        return False
    finally:
        s.close()


def stop(p):
    p.send_signal(signal.SIGTERM)
    try:
        p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="ssdvp-serve-paths-") as tmp:
        out = os.path.join(tmp, "out")
        f = os.path.join(tmp, "precious.txt")
        with open(f, "w") as w:
            w.write("keep me\n")
        refused("--socket at a regular file", ["-o", out, "--socket", f], "a file is there, not a socket", failures)
        if not os.path.isfile(f) or open(f).read() != "keep me\n":
            failures.append("the file at --socket was changed or removed")
        refused("--socket at a folder", ["-o", out, "--socket", tmp], "a folder is there, not a socket", failures)
        refused("--socket in a missing folder", ["-o", out, "--socket", os.path.join(tmp, "no", "s.sock")],
                "does not exist", failures)
        refused("--socket too long", ["-o", out, "--socket", os.path.join(tmp, "x" * 120)], "too long", failures)
        refused("-o at a regular file", ["-o", f], "is there and is not a folder", failures)

        # A live server on a path: a second one is refused, the first still answers.
        sock = os.path.join(tmp, "live.sock")
        a, _ = serve_process.start(BINARY, os.path.join(tmp, "a"), ["--socket", sock, "--persist"] + FAST, socket=False)
        try:
            refused("--socket where another server answers", ["-o", os.path.join(tmp, "b"), "--socket", sock],
                    "another server is listening on it", failures)
            checks.append("the first server answers after")
            if not answers(sock):
                failures.append("the first server no longer answers after the second was refused")
            # Its socket removed under it, a second server takes the path; the first, ending,
            # leaves the second's socket alone.
            os.unlink(sock)
            b, _ = serve_process.start(BINARY, os.path.join(tmp, "c"), ["--socket", sock, "--persist"] + FAST, socket=False)
            try:
                stop(a)
                checks.append("the second server's socket survives the first's end")
                if not os.path.exists(sock) or not answers(sock):
                    failures.append("the first server's end removed the second server's socket")
            finally:
                stop(b)
            checks.append("a server removes its own socket at its end")
            if os.path.exists(sock):
                failures.append("the second server left its socket behind")
        finally:
            if a.poll() is None:
                stop(a)

        # A stale socket: bound once, no one listening.
        stale = os.path.join(tmp, "stale.sock")
        s = socket.socket(socket.AF_UNIX)
        s.bind(stale)
        s.close()
        checks.append("a stale socket is taken")
        try:
            p, uri = serve_process.start(BINARY, os.path.join(tmp, "d"), ["--socket", stale] + FAST, socket=False)
            stop(p)
            print(f"stale socket: served at {uri}")
        except RuntimeError as e:
            failures.append(f"a stale socket was not taken: {e}")

        # A TCP port in use.
        t = socket.socket(socket.AF_INET)
        t.bind(("127.0.0.1", 0))
        t.listen(1)
        port = t.getsockname()[1]
        refused("--tcp on a port in use", ["-o", os.path.join(tmp, "e"), "--tcp", str(port)], f"127.0.0.1:{port}",
                failures)
        t.close()
    print(f"{len(checks) - len(failures)} passed, {len(failures)} failed")
    return report("ssdvp serve paths", failures)


if __name__ == "__main__":
    sys.exit(main())
