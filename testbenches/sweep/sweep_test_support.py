"""Shared by the sweep engine's tests (testbenches/sweep/test_*.py): where the sources and the
ssdvp binary are (SSDVP_BINARY from ctest, else build/platforms/ssdvp), a small fast platform
(64 blocks per plane, an empty drive: a run takes 0.3-3 s), running scripts/sweep.py as a
process, and reading its store. Each test re-executes itself under the engine's venv first."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from ssdvp_sweep.interpreter import ensure_sweep_python  # noqa: E402

ensure_sweep_python()

BINARY = Path(os.environ.get("SSDVP_BINARY", ROOT / "build" / "platforms" / "ssdvp"))
SWEEP = ROOT / "scripts" / "sweep.py"
SMALL = ["--set", "nand.blocks_per_plane=64", "--set", "precondition.fill=0", "--set", "precondition.overwrite=0"]
SMALL_SETTINGS = [("nand.blocks_per_plane", "64", "test"), ("precondition.fill", "0", "test"),
                  ("precondition.overwrite", "0", "test")]


def writes(io):
    return f"fio:rw=randwrite,bs=4k,iodepth=32,io={io}"


def sweep(*args, timeout=300):
    """scripts/sweep.py with args; returns the CompletedProcess (text)."""
    return subprocess.run([sys.executable, str(SWEEP), "--binary", str(BINARY), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def load_store(out):
    import pandas as pd
    return pd.read_parquet(Path(out) / "results.parquet")


# Figures that depend on the host's speed, not on the simulation.
# Figures of the machine, not of the simulation: wall time and rates, and the process's memory.
WALL_CLOCK = ("wall", "host_requests_per_wall_s", "host_seconds", "mips_while_executing", "host_peak_rss_mib")


def simulated_figures(row):
    return {k: v for k, v in row.items() if not any(w in k for w in WALL_CLOCK)}


def assert_same_figures(test, there, here, min_figures=0):
    """Two stores (indexed by hash) hold the same runs with every simulated figure equal;
    each run compares at least min_figures figures."""
    test.assertEqual(sorted(there.index), sorted(here.index))
    for h in there.index:
        a, b = simulated_figures(there.loc[h].to_dict()), simulated_figures(here.loc[h].to_dict())
        figures = [k for k in a if "." in k and not k.startswith("config.")]
        test.assertGreater(len(figures), min_figures)
        for k in figures:
            test.assertEqual(a[k], b[k], f"{k} of {there.loc[h, 'label']}")
