#!/usr/bin/env python3
"""A test that cannot run here skips (exit 77, which ctest counts as skipped, saying why), except
under CI=true, where every test must run and a skip is a failure that names the reason.

Checked on the two ways tests skip: testbenches/small_platform.py's skip() (the report test's
missing Chromium, the Slurm test's missing packages), and test_fetch_unicorn_wheel.sh on a tree
with no pinned wheel (a build with SSDVP_UNICORN=debian)."""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
failures = []
passed = []


def expect(what, argv, ci, status, words):
    env = dict(os.environ)
    env.pop("CI", None)
    if ci:
        env["CI"] = "true"
    p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    out = p.stdout + p.stderr
    label = f"{what} ({'CI=true' if ci else 'no CI'})"
    if p.returncode != status:
        failures.append(f"{label}: exit {p.returncode}, not {status}: {out.strip()[-400:]}")
    elif words not in out:
        failures.append(f"{label}: says no '{words}': {out.strip()[-400:]}")
    else:
        passed.append(label)
        print(f"{label}: exit {status}, '{words}'")


helper = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT / 'testbenches')!r}); "
          "from small_platform import skip; skip('chromium is not installed')"]
expect("small_platform.skip", helper, False, 77, "SKIP: chromium is not installed")
expect("small_platform.skip", helper, True, 1, "skipped under CI=true, where every test must run: chromium")

with tempfile.TemporaryDirectory() as tmp:
    (Path(tmp) / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "fetch-unicorn-wheel.sh", Path(tmp) / "scripts")
    wheel = [str(ROOT / "testbenches" / "e2e" / "test_fetch_unicorn_wheel.sh"), tmp]
    if os.uname().machine == "x86_64":
        expect("test_fetch_unicorn_wheel.sh without the pinned wheel", wheel, False, 77, "SKIP: no pinned wheel")
        expect("test_fetch_unicorn_wheel.sh without the pinned wheel", wheel, True, 1,
               "skipped under CI=true, where every test must run: no pinned wheel")

for f in failures:
    print("FAIL:", f)
print(f"{len(passed)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
