#!/usr/bin/env bash
# Python environment of the sweep engine (scripts/sweep.py, scripts/reproduce.py): installs
# Debian's python3-dask, python3-distributed, python3-pandas, python3-matplotlib, python3-venv,
# python3-selenium (the report test drives Chromium with it) and python3-jsonschema (the timeline
# test checks the trace-event format with it) if missing, then makes the
# venv build-deps/pyenv (with the system site packages, so Debian's dask, distributed, pandas,
# matplotlib and selenium are the ones used) and pip
# installs there what Debian 12 lacks: pyarrow (Parquet), dask-jobqueue (Slurm) and cocotb (the
# channel controller's Python testbench).
# Idempotent: it only does what is missing. Prints the venv's python on stdout.
#
# Leaves out Slurm itself (scripts/slurm-local.sh) and the C++ build (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv="$PWD/build-deps/pyenv"
# dask-jobqueue 0.9.0 needs dask/distributed >= 2022.02 (Debian 12 has 2022.12.1); pyarrow
# 17.0.0 has wheels for Python 3.11 and works with Debian's numpy 1.24 and pandas 1.5.3.
# cocotb 1.8.1: the last release that supports Debian 12's Verilator 5.006 (1.9 needs 5.022),
# for the channel controller's cocotb testbench (testbenches/rtl/cocotb).
pip_packages=(pyarrow==17.0.0 dask-jobqueue==0.9.0 cocotb==1.8.1)
debian_packages=(python3 python3-venv python3-pip python3-dask python3-distributed python3-pandas
                 python3-matplotlib python3-selenium python3-jsonschema)

missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "ssdvp setup-python: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x "$venv/bin/python" ]; then
  echo "ssdvp setup-python: creating $venv" >&2
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
if ! "$venv/bin/python" - "${pip_packages[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for spec in sys.argv[1:]:
    name, _, want = spec.partition("==")
    if version(name) != want:
        sys.exit(1)
PY
then
  echo "ssdvp setup-python: pip installing ${pip_packages[*]}" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${pip_packages[@]}" >&2
fi
echo "$venv/bin/python"
