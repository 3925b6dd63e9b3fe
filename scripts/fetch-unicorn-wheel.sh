#!/usr/bin/env bash
# Optional: a newer Unicorn for the ISS, from the PyPI wheel (it ships libunicorn.a and the
# headers).  Unpacks it into build-deps/unicorn-VERSION and prints the CMake option to use:
#   scripts/fetch-unicorn-wheel.sh && cmake -S . -B build -DSSDVP_UNICORN_PREFIX=$PWD/build-deps/unicorn-2.1.4
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version="${1:-2.1.4}"
dest="build-deps/unicorn-$version"
if [ ! -f "$dest/lib/libunicorn.a" ]; then
  tmp="$(mktemp -d)"
  python3 -m pip download --quiet --no-deps "unicorn==$version" -d "$tmp"
  python3 -m zipfile -e "$tmp"/unicorn-*.whl "$tmp/x"
  mkdir -p "$dest"
  cp -r "$tmp/x/unicorn/include" "$tmp/x/unicorn/lib" "$dest/"
  rm -rf "$tmp"
fi
echo "-DSSDVP_UNICORN_PREFIX=$PWD/$dest"
