#!/usr/bin/env python3
"""Runs the cocotb testbench (test_nand_channel_ctrl.py) through cocotb's make flow and checks
its results: exit status 0 only if cocotb (1.8, from PyPI: the release that supports Debian's
Verilator 5.006) ran every test and all passed.

  run.py BUILD_DIR      (the Verilated model and results.xml go there)
"""
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = 3


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    bindir = os.path.dirname(sys.executable)
    if not os.path.exists(os.path.join(bindir, "cocotb-config")):
        sys.exit(f"cocotb is not installed beside {sys.executable} (scripts/setup-python.sh installs cocotb 1.8.1)")
    os.makedirs(build, exist_ok=True)
    results = os.path.join(build, "results.xml")
    if os.path.exists(results):
        os.remove(results)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), COCOTB_RESULTS_FILE=results,
               PYTHONDONTWRITEBYTECODE="1")
    make = shutil.which("make") or "make"
    p = subprocess.run([make, "-C", HERE, f"SIM_BUILD={os.path.join(build, 'sim_build')}"], env=env)
    if not os.path.exists(results):
        sys.exit(f"cocotb wrote no results (make exited {p.returncode})")
    cases = ET.parse(results).getroot().iter("testcase")
    ran, failed = 0, []
    for c in cases:
        ran += 1
        if c.find("failure") is not None or c.find("error") is not None:
            failed.append(c.get("name"))
    print(f"cocotb: {ran} tests, {len(failed)} failed" + (": " + ", ".join(failed) if failed else ""))
    if p.returncode != 0 or failed or ran < EXPECTED:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
