"""Makes a command run under the sweep engine's Python (build-deps/pyenv, made by
scripts/setup-python.sh: Debian's dask, distributed and pandas plus pyarrow and dask-jobqueue
from PyPI). A script calls ensure_sweep_python() before importing dask: if the current
interpreter is another one, it re-executes the script under the venv's; if the venv is missing
it stops with status 2 and the command that makes it. Leaves out installing anything."""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / "build-deps" / "pyenv" / "bin" / "python"


def ensure_sweep_python():
    if Path(sys.prefix).resolve() == VENV_PYTHON.parent.parent.resolve():
        return
    if not VENV_PYTHON.exists():
        sys.stderr.write(f"{Path(sys.argv[0]).name}: the sweep engine's Python is missing ({VENV_PYTHON}); "
                         "run scripts/setup-python.sh\n")
        sys.exit(2)
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), *sys.argv])
