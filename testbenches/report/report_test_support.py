"""Shared by the report tests (testbenches/report/test_*.py): where the sources and the ssdvp binary
are (argv, else SSDVP_BINARY from ctest), the small fast platform, and one ssdvp run with the
time series on (a filled drive, the default: the GC cliff is in the series)."""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from small_platform import SMALL  # noqa: E402  (shared with testbenches/timeline)

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
RANDWRITE = "fio:rw=randwrite,bs=4k,iodepth=32,io=20000"
SERIES_INTERVAL_MS = 2
WORK_MARKER = ".report-test-work"  # a --work folder holding it may be emptied; another is refused


def arguments(description):
    """The tests' command line: the binary (or SSDVP_BINARY), --run-dir to use a run folder made
    before instead of running ssdvp, and --work, the folder the test writes into."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("binary", nargs="?", default=os.environ.get("SSDVP_BINARY"),
                        help="the ssdvp binary (default: $SSDVP_BINARY)")
    parser.add_argument("--run-dir", type=Path,
                        help="a run folder with a series to use instead of running ssdvp (copied into --work)")
    parser.add_argument("--work", type=Path, default=Path.cwd() / f"{Path(parser.prog).stem}-work",
                        help="folder for the runs, the reports and the screenshots (emptied first)")
    args = parser.parse_args()
    if not args.binary and not args.run_dir:
        parser.error("give the ssdvp binary (argument or SSDVP_BINARY) or --run-dir")
    if args.binary and not os.access(args.binary, os.X_OK):
        parser.error(f"{args.binary}: not an executable ssdvp binary")
    if args.run_dir and not (args.run_dir / "run.json").is_file():
        parser.error(f"{args.run_dir / 'run.json'}: missing")
    marker = args.work / WORK_MARKER
    if args.work.exists() and any(args.work.iterdir()) and not marker.exists():
        parser.error(f"{args.work}: not empty and not a folder of these tests ({WORK_MARKER} missing): "
                     "give another --work")
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    marker.touch()
    return args


def ssdvp_run(binary, out, series=True):
    """ssdvp run of RANDWRITE on the small platform into out; raises with ssdvp's stderr if it fails."""
    settings = ["-s", f"sim.series_interval_ms={SERIES_INTERVAL_MS}"] if series else []
    command = [str(binary), "run", "-q", "-o", str(out), *SMALL, *settings, "-w", RANDWRITE]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=240)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    return out


def series_run(args, name="run"):
    """The run folder with a series the test reads: --run-dir copied, else a fresh ssdvp run."""
    out = args.work / name
    if args.run_dir:
        shutil.copytree(args.run_dir, out)
        return out
    return ssdvp_run(args.binary, out)
