"""Shared by the Python tests that run ssdvp (testbenches/timeline, testbenches/report): the small,
fast platform they run on (4 channels x 2 ways, 64 blocks of 64 pages per plane, 256 MiB of
DRAM, no progress line), and how a test reports its findings."""

SMALL = ["-s", "nand.channels=4", "-s", "nand.ways=2", "-s", "nand.planes=2", "-s", "nand.blocks_per_plane=64",
         "-s", "nand.mlc.pages_per_block=64", "-s", "dram.size_mib=256", "-s", "sim.progress=false"]


def report(what, failures):
    """Prints each finding and the verdict; the exit status (1 if any finding)."""
    for f in failures:
        print("FAIL:", f)
    print(f"{what}:", "FAILED" if failures else "passed")
    return 1 if failures else 0
