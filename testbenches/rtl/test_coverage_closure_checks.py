#!/usr/bin/env python3
"""scripts/rtl_regression.py's closure cannot pass on nothing: on the coverage data that
rtl.Coverage.closure merged (OUT/merged.dat, which reaches closure), each broken variant must
fail closure, saying why:
  1. the data without its functional bins (a build that lost --coverage-user, an instance
     renamed): every declared bin is missing;
  2. the data without one bin (one cover property renamed or dropped): that bin is missing;
  3. an exclusion naming a bin that no longer exists, and one naming a line with no coverage
     point: both stale.
And the data as merged, with the shipped exclusions, still reaches closure.

  test_coverage_closure_checks.py OUT   (the folder rtl.Coverage.closure wrote)
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "rtl_regression.py")
EXCLUSIONS = os.path.join(ROOT, "testbenches", "rtl", "coverage_exclusions.txt")


def closure(out, merged, exclusions=EXCLUSIONS):
    p = subprocess.run([sys.executable, SCRIPT, "--from-merged", merged, "--out", out, "--require-closure",
                        "--exclusions", exclusions], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def main():
    merged = os.path.join(sys.argv[1], "merged.dat")
    if not os.path.exists(merged):
        sys.exit(f"{merged}: missing (rtl.Coverage.closure writes it)")
    lines = open(merged, encoding="latin-1").read().splitlines(keepends=True)
    user = [ln for ln in lines if "\x01page\x02v_user" in ln]
    failures, passed = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        def case(what, data, exclusions, want_rc, words):
            nonlocal passed
            path = os.path.join(tmp, "merged.dat")
            with open(path, "w", encoding="latin-1") as f:
                f.writelines(data)
            rc, text = closure(os.path.join(tmp, "out"), path, exclusions)
            missing = [w for w in words if w not in text]
            if rc != want_rc or missing:
                failures.append(f"{what}: exit {rc} (want {want_rc}), missing {missing}:\n{text[-1500:]}")
            else:
                passed += 1
                print(f"{what}: exit {rc}, says {words}")

        case("the merged data", lines, EXCLUSIONS, 0, ["closure: reached"])
        case("without the functional bins", [ln for ln in lines if ln not in user], EXCLUSIONS, 1,
             ["closure: NOT reached", "bins declared but not in the coverage data (40"])
        one = user[0]
        dropped = [ln for ln in lines if ln is not one]
        case("without one bin", dropped, EXCLUSIONS, 1, ["closure: NOT reached", "bins declared but not in the coverage data (1"])
        stale = os.path.join(tmp, "stale.txt")
        with open(stale, "w") as f:
            f.write(open(EXCLUSIONS).read() + "bin c_no_such_bin renamed long ago\nline 99999 a line that is gone\n")
        case("stale exclusions", lines, stale, 1,
             ["closure: NOT reached", "exclusions naming no bin (stale): c_no_such_bin",
              "exclusions naming a line with no coverage point (stale): 99999"])
    for f in failures:
        print("FAIL:", f)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
