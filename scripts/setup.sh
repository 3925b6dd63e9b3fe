#!/usr/bin/env bash
# Set-up for a fresh Debian 12 machine: installs the Debian packages ssdvp needs if any is
# missing (as root, or through sudo), then configures and builds everything (Release).
# Sourced by run-default.sh and run-tests.sh; safe to run again (it only does what is missing).
#
# The ISS builds against Unicorn 2.1.4 from its PyPI wheel, pinned by hash
# (scripts/fetch-unicorn-wheel.sh; about twice as fast on the firmware as Debian's 2.0.1, see
# docs/firmware.md).  SSDVP_UNICORN=debian builds against Debian's libunicorn-dev 2.0.1 instead
# (no download; the default on machines other than x86_64, which have no pinned wheel).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(
  build-essential cmake ninja-build pkg-config git
  libsystemc-dev libboost-dev zlib1g-dev libbz2-dev liblzma-dev libzstd-dev libgtest-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf libunicorn-dev gdb-multiarch verilator
  python3 python3-matplotlib
  clang-14 libfuzzer-14-dev libclang-rt-14-dev   # the libFuzzer harnesses (testbenches/fuzz)
  chromium chromium-driver   # headless browser of the report test (testbenches/report)
)
unicorn_prefix=""
default_unicorn=pypi
[ "$(uname -m)" = "x86_64" ] || default_unicorn=debian
unicorn="${SSDVP_UNICORN:-$default_unicorn}"
if [ "$unicorn" = "pypi" ]; then
  packages+=(python3-pip)
elif [ "$unicorn" != "debian" ]; then
  echo "ssdvp setup: SSDVP_UNICORN must be debian or pypi, not '${SSDVP_UNICORN}'" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "ssdvp setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
scripts/setup-python.sh >/dev/null   # the sweep engine's venv: Debian's dask/distributed/pandas + pyarrow, dask-jobqueue

if [ "$unicorn" = "pypi" ]; then
  unicorn_prefix="$(scripts/fetch-unicorn-wheel.sh)"
  unicorn_prefix="${unicorn_prefix#-DSSDVP_UNICORN_PREFIX=}"
fi

build_type="${SSDVP_BUILD_TYPE:-Release}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" -DSSDVP_UNICORN_PREFIX="$unicorn_prefix" >/dev/null
cmake --build build --parallel "$(nproc)"
