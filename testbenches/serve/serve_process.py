"""Shared by the serve tests: starts `ssdvp serve` and waits for its line saying where it listens."""
import os
import subprocess


def start(binary, out, args, socket=True):
    """An `ssdvp serve -o OUT [--socket OUT/nbd.sock] ARGS` process and the URI it listens on;
    raises RuntimeError with what it printed if it does not listen."""
    cmd = [binary, "serve", "-o", out] + (["--socket", os.path.join(out, "nbd.sock")] if socket else []) + list(args)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if "listening on" not in line:
        p.kill()
        raise RuntimeError(f"ssdvp serve did not listen: {line!r} {p.communicate()}")
    return p, line.split("listening on ", 1)[1].strip()
