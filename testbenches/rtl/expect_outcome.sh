#!/usr/bin/env bash
# Runs a stress run and checks both its exit status and its output, which ctest's
# PASS_REGULAR_EXPRESSION alone does not (it ignores the exit status: a run that printed the
# expected line and then crashed passed).
# Usage: expect_outcome.sh STATUS REGEX COMMAND [ARGS...]
#   STATUS  the exit status the run must end with (0: clean; 1: it caught something)
#   REGEX   an extended regular expression a line of its output must match
set -uo pipefail
want="$1" regex="$2"
shift 2
out="$("$@" 2>&1)"
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$want" ]; then
  echo "FAIL: exit status $rc, not $want: $*"
  exit 1
fi
if ! grep -Eq -- "$regex" <<<"$out"; then
  echo "FAIL: no line matches '$regex': $*"
  exit 1
fi
echo "expected: exit $want and a line matching '$regex'"
