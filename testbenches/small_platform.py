"""Shared by the Python tests that run ssdvp (testbenches/timeline, testbenches/report): the small,
fast platform they run on (4 channels x 2 ways, 64 blocks of 64 pages per plane, 256 MiB of
DRAM, no progress line), how a test reports its findings, and how it skips."""
import os
import sys

SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests

SMALL = ["-s", "nand.channels=4", "-s", "nand.ways=2", "-s", "nand.planes=2", "-s", "nand.blocks_per_plane=64",
         "-s", "nand.mlc.pages_per_block=64", "-s", "dram.size_mib=256", "-s", "sim.progress=false"]


def report(what, failures):
    """Prints each finding and the verdict; the exit status (1 if any finding)."""
    for f in failures:
        print("FAIL:", f)
    print(f"{what}:", "FAILED" if failures else "passed")
    return 1 if failures else 0


def skip(reason):
    """Ends a test that cannot run here, saying why: exit 77 (ctest counts it as skipped), or,
    under CI=true, where every test must run, exit 1 (a failure naming the reason)."""
    if os.environ.get("CI") == "true":
        print(f"FAIL: skipped under CI=true, where every test must run: {reason}")
        sys.exit(1)
    print(f"SKIP: {reason}")
    sys.exit(SKIP)
