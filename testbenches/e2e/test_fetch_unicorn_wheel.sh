#!/usr/bin/env bash
# scripts/fetch-unicorn-wheel.sh in a scratch copy of the tree: a wheel whose bytes are not the
# pinned ones is refused with the reason and nothing is unpacked; the pinned wheel from
# $SSDVP_WHEELHOUSE is unpacked with pip forbidden to reach an index (the offline path).
# Without the pinned wheel (a build with SSDVP_UNICORN=debian) the second part is skipped (exit
# 77), which under CI=true is a failure.
# Usage: test_fetch_unicorn_wheel.sh SOURCE_DIR
set -uo pipefail
src="$1"
wheel="unicorn-2.1.4-cp37-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$tmp/tree/scripts" "$tmp/tree/build-deps/wheels"
cp "$src/scripts/fetch-unicorn-wheel.sh" "$tmp/tree/scripts/"
if [ "$(uname -m)" != "x86_64" ]; then
  out="$("$tmp/tree/scripts/fetch-unicorn-wheel.sh" 2>&1)" && fail "succeeded on $(uname -m)"
  grep -q "the pinned wheel is for x86_64" <<<"$out" || fail "no reason given: $out"
  echo "not x86_64: refused with the reason"
  exit 0
fi

# 1. A damaged wheel in the cache.
echo "not a wheel" > "$tmp/tree/build-deps/wheels/$wheel"
out="$(PIP_NO_INDEX=1 "$tmp/tree/scripts/fetch-unicorn-wheel.sh" 2>&1)" && fail "a damaged wheel was accepted"
grep -q "does not have the pinned SHA-256" <<<"$out" || fail "no reason given: $out"
grep -q "SSDVP_UNICORN=debian" <<<"$out" || fail "no way out given: $out"
[ ! -e "$tmp/tree/build-deps/unicorn-2.1.4/lib/libunicorn.a" ] || fail "a damaged wheel was unpacked"
echo "damaged wheel: refused"

# 2. The pinned wheel from a wheelhouse, no index (needs the wheel this tree's setup fetched).
real="$src/build-deps/wheels/$wheel"
if [ ! -f "$real" ]; then
  why="no pinned wheel in $src/build-deps/wheels (built with SSDVP_UNICORN=debian): the offline part cannot run"
  if [ "${CI:-}" = "true" ]; then fail "skipped under CI=true, where every test must run: $why"; fi
  echo "SKIP: $why"
  exit 77
fi
rm "$tmp/tree/build-deps/wheels/$wheel"
mkdir -p "$tmp/house"
cp "$real" "$tmp/house/"
out="$(PIP_NO_INDEX=1 SSDVP_WHEELHOUSE="$tmp/house" "$tmp/tree/scripts/fetch-unicorn-wheel.sh" 2>&1)" ||
  fail "the wheelhouse's pinned wheel was refused: $out"
[ "$out" = "-DSSDVP_UNICORN_PREFIX=$tmp/tree/build-deps/unicorn-2.1.4" ] || fail "printed: $out"
[ -f "$tmp/tree/build-deps/unicorn-2.1.4/lib/libunicorn.a" ] || fail "nothing unpacked"
[ -f "$tmp/tree/build-deps/unicorn-2.1.4/include/unicorn/unicorn.h" ] || fail "no headers unpacked"
echo "wheelhouse: unpacked offline"
