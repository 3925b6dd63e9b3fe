#!/usr/bin/env python3
"""Runs the closed-form and write-amplification tests and prints their figures as Markdown
(the tables of docs/results/validation.md).  Usage: scripts/validation_report.py [build-dir]"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

build = Path(sys.argv[1] if len(sys.argv) > 1 else "build")
exe = build / "testbenches" / "platform_tests"
rows = []
for test in ["ClosedForm.*", "WriteAmplification.*"]:
    tests = subprocess.run([exe, "--gtest_list_tests", f"--gtest_filter={test}"], capture_output=True, text=True).stdout
    names = []
    suite = None
    for line in tests.splitlines():
        if not line.startswith(" "):
            suite = line.strip()
        else:
            names.append(suite + line.strip())
    for name in names:  # one process per test: SystemC elaborates once
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            subprocess.run([exe, f"--gtest_filter={name}", f"--gtest_output=json:{out.name}"], capture_output=True)
            doc = json.load(open(out.name))
        for s in doc["testsuites"]:
            for t in s["testsuite"]:
                rows.append((f'{s["name"]}.{t["name"]}', "FAILED" if t.get("failures") else "passed", t))

print("| test | result | expected | measured | error |\n|---|---|---|---|---|")
for name, result, t in rows:
    if "expected_ns" in t:
        e, lo, hi = float(t["expected_ns"]), float(t["measured_min_ns"]), float(t["measured_max_ns"])
        print(f"| {name} | {result} | {e:.1f} ns | {lo:.0f}..{hi:.0f} ns | {max(abs(lo-e), abs(hi-e)):.1f} ns |")
    elif "bound_mbps" in t:
        b, m = float(t["bound_mbps"]), float(t["measured_mbps"])
        print(f"| {name} | {result} | {b:.2f} MB/s | {m:.2f} MB/s | {100*(m-b)/b:+.2f}% |")
    elif "model" in t:
        b, m = float(t["model"]), float(t["waf"])
        print(f"| {name} | {result} | WAF {b:.3f} | WAF {m:.3f} | {100*(m-b)/b:+.2f}% |")
    else:
        print(f"| {name} | {result} | | | |")
