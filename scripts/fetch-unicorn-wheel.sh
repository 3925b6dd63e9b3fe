#!/usr/bin/env bash
# The ISS's Unicorn: 2.1.4 from its PyPI wheel (which ships libunicorn.a and the headers),
# pinned by version and by the wheel's SHA-256, unpacked into build-deps/unicorn-2.1.4.
# Prints the CMake option to build with it:
#   cmake -S . -B build $(scripts/fetch-unicorn-wheel.sh)
#
# Offline: the wheel is looked for first in $SSDVP_WHEELHOUSE (a folder holding
# unicorn-2.1.4-cp37-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl), then in
# build-deps/wheels (where a download is kept); only if neither has it is PyPI asked.  Any
# wheel whose hash differs is refused, so every build runs the same Unicorn bytes.
# Only x86_64 has a pinned wheel; elsewhere use SSDVP_UNICORN=debian (Debian's 2.0.1).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version="2.1.4"
wheel="unicorn-2.1.4-cp37-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
sha256="9d6e6dea140560de4ebd8446661f7ef84a357d428c14a3ef09dacd306ec8c239"
dest="build-deps/unicorn-$version"
cache="build-deps/wheels"

fail() {
  echo "fetch-unicorn-wheel: $*" >&2
  echo "fetch-unicorn-wheel: build against Debian's Unicorn 2.0.1 instead with SSDVP_UNICORN=debian" >&2
  exit 1
}

if [ "$(uname -m)" != "x86_64" ]; then
  fail "the pinned wheel is for x86_64, this machine is $(uname -m)"
fi
if [ ! -f "$dest/lib/libunicorn.a" ] || [ "$(cat "$dest/.sha256" 2>/dev/null)" != "$sha256" ]; then
  mkdir -p "$cache"
  if [ ! -f "$cache/$wheel" ] && [ -n "${SSDVP_WHEELHOUSE:-}" ] && [ -f "$SSDVP_WHEELHOUSE/$wheel" ]; then
    cp "$SSDVP_WHEELHOUSE/$wheel" "$cache/"
  fi
  if [ ! -f "$cache/$wheel" ]; then
    tmp="$(mktemp -d)"
    echo "unicorn==$version --hash=sha256:$sha256" > "$tmp/requirements.txt"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes -r "$tmp/requirements.txt" \
      -d "$tmp" || fail "could not download $wheel from PyPI (offline? put it in \$SSDVP_WHEELHOUSE)"
    mv "$tmp/$wheel" "$cache/" 2>/dev/null || fail "PyPI gave another file than $wheel: $(ls "$tmp")"
    rm -rf "$tmp"
  fi
  echo "$sha256  $cache/$wheel" | sha256sum --check --quiet - ||
    fail "$cache/$wheel does not have the pinned SHA-256 $sha256 (delete it to download again)"
  tmp="$(mktemp -d)"
  python3 -m zipfile -e "$cache/$wheel" "$tmp/x"
  rm -rf "$dest"
  mkdir -p "$dest"
  cp -r "$tmp/x/unicorn/include" "$tmp/x/unicorn/lib" "$dest/"
  echo "$sha256" > "$dest/.sha256"
  rm -rf "$tmp"
fi
echo "-DSSDVP_UNICORN_PREFIX=$PWD/$dest"
