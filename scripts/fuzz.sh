#!/usr/bin/env bash
# Runs the libFuzzer harnesses (testbenches/fuzz, docs/reliability.md "Fuzzing"):
#   scripts/fuzz.sh [HARNESS|all] [SECONDS]     (default: all, 300 s each)
# each over its seed corpus testbenches/fuzz/corpus/HARNESS, writing the new inputs it finds
# to a scratch folder (never into the repository), and prints executions and executions/s per
# harness at the end.  Exits non-zero when a harness crashed, hung, leaked or hit undefined
# behaviour, and says where the input that did it is.
#
# Environment: SSDVP_FUZZ_BUILD  the clang build with the fuzz_* binaries (build/fuzz-clang)
#              SSDVP_FUZZ_OUT    scratch folder (build/fuzz-out): OUT/HARNESS/corpus (new
#                                inputs), OUT/HARNESS/crashes (crash-*, timeout-*, leak-*), logs
#              SSDVP_FUZZ_FRESH  1: start from the seed corpus alone (ctest does)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
harnesses=(trace_reader workload_spec config_toml elf_image hif_dma gdb_packet firmware_completions)
which=${1:-all}
seconds=${2:-300}
build=${SSDVP_FUZZ_BUILD:-$root/build/fuzz-clang}
out=${SSDVP_FUZZ_OUT:-$root/build/fuzz-out}
if [ "$which" != all ]; then
  if [[ ! " ${harnesses[*]} " == *" $which "* ]]; then
    echo "fuzz.sh: no harness '$which' (${harnesses[*]} or all)" >&2
    exit 2
  fi
  harnesses=("$which")
fi
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "fuzz.sh: SECONDS must be a positive whole number, not '$seconds'" >&2
  exit 2
fi

failed=0
summary=()
for h in "${harnesses[@]}"; do
  bin=$build/fuzz_$h
  if [ ! -x "$bin" ]; then
    echo "fuzz.sh: $bin is missing: build the project (cmake --build build) with clang-14 and libFuzzer installed" >&2
    exit 2
  fi
  dir=$out/$h
  [ "${SSDVP_FUZZ_FRESH:-0}" = 1 ] && rm -rf "$dir/corpus"
  mkdir -p "$dir/corpus" "$dir/crashes"
  log=$dir/last-run.log
  marker=$dir/.started
  touch "$marker"
  echo "fuzz.sh: $h for ${seconds} s (log $log)"
  # -timeout: one input running longer is a hang; -rss_limit_mb: memory blow-up is a finding.
  dict=()
  [ -f "$root/testbenches/fuzz/$h.dict" ] && dict=(-dict="$root/testbenches/fuzz/$h.dict")
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
    -artifact_prefix="$dir/crashes/" "$dir/corpus" "$root/testbenches/fuzz/corpus/$h" >"$log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ $status -ne 0 ]; then
    failed=1
    crash=$(find "$dir/crashes" -type f -newer "$marker" | head -1)
    grep -m1 -E "ERROR: |runtime error|fuzz harness:|Test unit written" "$log" >&2
    echo "fuzz.sh: $h FAILED (exit $status); input: ${crash:-see $log}" >&2
    echo "  reproduce: $bin ${crash:-INPUT}" >&2
    summary+=("$(printf '%-22s %12s %10s  FAILED: %s' "$h" "${runs:-?}" "${rate:-?}" "${crash:-$log}")")
  else
    summary+=("$(printf '%-22s %12s %10s  ok' "$h" "${runs:-?}" "${rate:-?}")")
  fi
  rm -f "$marker"
done
printf '%-22s %12s %10s\n' harness executions exec/s
printf '%s\n' "${summary[@]}"
exit $failed
