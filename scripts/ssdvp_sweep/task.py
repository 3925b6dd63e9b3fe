"""What a Dask worker executes for one run: ssdvp in a fresh temporary folder (so no run.json
from an earlier run can be mistaken for this one's), its exit status turned into a status, the
tail of its stderr, and the files it wrote returned to the client (the client keeps them; the
worker needs no shared file system for results). Self-contained (standard library only): it is
shipped to workers by value, so a worker needs Python, dask and the ssdvp build, not this
package.

Statuses: ok (exit 0 and a run.json), bad-input (2), not-completed (3), integrity (4),
failed-commands (5), crashed (killed by a signal), timeout, no-results (exit 0 without
run.json), build-changed (the binary on the worker is not the one the run was planned with: a
rebuild during the sweep, or another build on a cluster node), error (any other exit, or ssdvp
could not be started).
Leaves out retries after a lost worker: the Dask scheduler re-runs the task elsewhere.
"""
import ctypes
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

EXIT_STATUS = {0: "ok", 2: "bad-input", 3: "not-completed", 4: "integrity", 5: "failed-commands", 130: "interrupted"}
BANNER = ("SystemC 2.", "Copyright (c) 1996-", "ALL RIGHTS RESERVED")
STDERR_LINES = 12


def _die_with_worker():
    """In the child before exec: SIGKILL ssdvp when the worker that started it dies (Linux
    prctl PR_SET_PDEATHSIG), so a lost or closed worker leaves no run behind."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def stderr_tail(text):
    lines = [line.rstrip() for line in text.splitlines()
             if line.strip() and not any(b in line for b in BANNER)]
    return "\n".join(lines[-STDERR_LINES:])


def run_one(task):
    """Runs task["command"] with --out in a temporary folder; returns a result dict."""
    workdir = tempfile.mkdtemp(prefix=f"ssdvp-{task['hash']}-")
    out = os.path.join(workdir, "out")
    started = time.time()
    result = {"hash": task["hash"], "worker": f"{socket.gethostname()}:{os.getpid()}", "files": {},
              "exit_code": None, "stderr": "", "run": None}
    try:
        with open(task["command"][0], "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if task.get("binary_sha256") and digest != task["binary_sha256"]:
            result.update(status="build-changed", stderr=f"{task['command'][0]} is not the build the sweep was "
                          f"planned with (sha256 {digest[:16]}, planned {task['binary_sha256'][:16]})",
                          wall_s=time.time() - started)
            shutil.rmtree(workdir, ignore_errors=True)
            return result
        proc = subprocess.run(task["command"] + ["--out", out], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=task.get("timeout_s"),
                              preexec_fn=_die_with_worker)
        result["exit_code"] = proc.returncode
        result["stderr"] = stderr_tail(proc.stderr)
        if proc.returncode < 0:
            result["status"] = f"crashed ({signal.Signals(-proc.returncode).name})"
        else:
            result["status"] = EXIT_STATUS.get(proc.returncode, "error")
        if os.path.isdir(out):
            for name in sorted(os.listdir(out)):
                if not os.path.isfile(os.path.join(out, name)):
                    continue   # a power cut's folders (images): the top-level run.json tells the story
                with open(os.path.join(out, name), errors="replace") as f:
                    result["files"][name] = f.read()
        if "run.json" in result["files"]:
            result["run"] = json.loads(result["files"]["run.json"])
        elif result["status"] == "ok":
            result["status"] = "no-results"
    except subprocess.TimeoutExpired as e:
        result["status"] = "timeout"
        result["stderr"] = stderr_tail(e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else e.stderr or "")
        result["stderr"] += f"\nkilled after {task.get('timeout_s')} s"
    except (OSError, ValueError) as e:
        result["status"] = "error"
        result["stderr"] = f"{type(e).__name__}: {e}"
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result["wall_s"] = time.time() - started
    return result
