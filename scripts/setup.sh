#!/usr/bin/env bash
# Set-up for a fresh Debian 12 machine: installs the Debian packages ssdvp needs if any is
# missing (as root, or through sudo), then configures and builds (Release).
#   scripts/setup.sh run    what a simulation needs: the packages of the build, then ssdvp and
#                           the RV32 firmware image (run-default.sh)
#   scripts/setup.sh [all]  everything the tests need too: clang-14 and libFuzzer, Chromium, the
#                           sweep engine's Python venv, then every target (run-tests.sh)
# Safe to run again (it only does what is missing); `run` after `all` keeps the full build.
#
# The ISS builds against Unicorn 2.1.4 from its PyPI wheel, pinned by hash
# (scripts/fetch-unicorn-wheel.sh; about twice as fast on the firmware as Debian's 2.0.1, see
# docs/firmware.md).  SSDVP_UNICORN=debian builds against Debian's libunicorn-dev 2.0.1 instead
# (no download; the default on machines other than x86_64, which have no pinned wheel).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode="${1:-all}"
if [ "$mode" != "run" ] && [ "$mode" != "all" ]; then
  echo "ssdvp setup: usage: scripts/setup.sh [run|all], not '$mode'" >&2
  exit 2
fi
packages=(
  build-essential cmake ninja-build pkg-config git
  libsystemc-dev libboost-dev zlib1g-dev libbz2-dev liblzma-dev libzstd-dev libgtest-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf libunicorn-dev verilator python3
)
if [ "$mode" = "all" ]; then
  packages+=(
    gdb-multiarch python3-matplotlib   # the gdb test (testbenches/firmware_in_loop), plots
    clang-14 libfuzzer-14-dev libclang-rt-14-dev   # the libFuzzer harnesses (testbenches/fuzz)
    chromium chromium-driver   # headless browser of the report test (testbenches/report)
    libnbd-bin python3-libnbd fio qemu-utils   # real NBD clients of ssdvp serve (testbenches/serve)
    qemu-system-x86 linux-image-amd64 busybox-static e2fsprogs   # its file-system guest
    patch   # the RTL bug list's patches (testbenches/rtl/mutants)
  )
fi
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
if [ -n "${SSDVP_SETUP_DRY_RUN:-}" ]; then   # what this mode would install and build (scripts test)
  echo "packages: ${packages[*]}"
  [ "$mode" = "all" ] && echo "python venv: scripts/setup-python.sh"
  if [ "$mode" = "run" ]; then echo "build targets: ssdvp firmware_rv32"; else echo "build targets: all"; fi
  exit 0
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
if [ "$mode" = "all" ]; then
  scripts/setup-python.sh >/dev/null   # the sweep engine's venv: Debian's dask/distributed/pandas + pyarrow, dask-jobqueue
fi

if [ "$unicorn" = "pypi" ]; then
  unicorn_prefix="$(scripts/fetch-unicorn-wheel.sh)"
  unicorn_prefix="${unicorn_prefix#-DSSDVP_UNICORN_PREFIX=}"
fi

build_type="${SSDVP_BUILD_TYPE:-Release}"
# The fuzz tests need clang-14 and libFuzzer: `all` installs them and requires them; `run`
# leaves them out of a build of its own, and keeps them in one that `all` configured.
fuzz=()
if [ "$mode" = "all" ]; then
  fuzz=(-DSSDVP_FUZZ=ON)
elif ! grep -qs '^SSDVP_FUZZ:BOOL=ON' build/CMakeCache.txt; then
  fuzz=(-DSSDVP_FUZZ=OFF)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" -DSSDVP_UNICORN_PREFIX="$unicorn_prefix" "${fuzz[@]}" >/dev/null
if [ "$mode" = "run" ]; then
  cmake --build build --parallel "$(nproc)" --target ssdvp firmware_rv32
else
  cmake --build build --parallel "$(nproc)"
fi
