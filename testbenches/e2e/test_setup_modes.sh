#!/usr/bin/env bash
# The README's first command builds what a simulation needs and no more: scripts/run-default.sh
# runs `scripts/setup.sh run`, which installs the build's packages only (no clang, Chromium or
# the sweep venv) and builds ssdvp and the firmware image, not the 270-odd test targets;
# scripts/run-tests.sh runs `setup.sh all`, which installs and builds everything.  Checked
# through SSDVP_SETUP_DRY_RUN (what each mode would do), so nothing is installed or built here.
set -uo pipefail
root="${1:?usage: test_setup_modes.sh SOURCE_DIR}"
fail=0
check() {   # check WHAT CONDITION...
  local what="$1"; shift
  if ! "$@"; then echo "FAIL: $what"; fail=1; fi
}
run_plan="$(SSDVP_SETUP_DRY_RUN=1 "$root/scripts/setup.sh" run)"
all_plan="$(SSDVP_SETUP_DRY_RUN=1 "$root/scripts/setup.sh" all)"
check "run-default.sh uses setup.sh run" grep -q '^scripts/setup.sh run$' "$root/scripts/run-default.sh"
check "run-tests.sh uses setup.sh all" grep -q '^scripts/setup.sh all$' "$root/scripts/run-tests.sh"
check "run mode builds ssdvp and the firmware only: $run_plan" grep -qx 'build targets: ssdvp firmware_rv32' <<<"$run_plan"
for p in clang-14 chromium libfuzzer-14-dev gdb-multiarch python3-libnbd fio qemu-system-x86 busybox-static; do
  check "run mode installs $p" bash -c '! grep -qw -- "$1" <<<"$2"' _ "$p" "$(grep '^packages:' <<<"$run_plan")"
  check "all mode does not install $p" grep -qw -- "$p" <<<"$(grep '^packages:' <<<"$all_plan")"
done
check "run mode makes the sweep venv" bash -c '! grep -q "python venv" <<<"$1"' _ "$run_plan"
check "all mode builds everything: $all_plan" grep -qx 'build targets: all' <<<"$all_plan"
SSDVP_SETUP_DRY_RUN=1 "$root/scripts/setup.sh" nonsense >/dev/null 2>&1
check "a bad mode is refused with status 2" test $? -eq 2
if [ $fail -eq 0 ]; then echo "setup modes: every check passed"; fi
exit $fail
