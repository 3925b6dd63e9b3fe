#!/usr/bin/env python3
"""The channel controller's coverage regression: constrained-random stress runs over many seeds,
their coverage merged, a report naming what was never hit, and closure checked.

Each seed runs the coverage build of the stress driver (build/testbenches/rtl_stress_cov: the RTL
with its assertions, rtl/nand_channel_ctrl_checks.sv, and its functional coverage points,
rtl/nand_channel_ctrl_coverage.sv, built with Verilator's --coverage) under one of the knob
profiles below, in turn; a run that catches anything (an assertion, the protocol monitor, the
phase checks, the scoreboard) fails the regression. The seeds' coverage data are merged with
verilator_coverage, and the report gives:
  * line coverage of rtl/nand_channel_ctrl.sv (Verilator's line and branch points), with every
    point never hit and its source line;
  * toggle coverage of the design's signals (reported, not a closure goal: the 64-bit cycle
    stamps' high bits never toggle in a run of millions of cycles);
  * every functional bin (cover property) with its count, and the bins never hit.
Exclusions (testbenches/rtl/coverage_exclusions.txt) name a line or a bin with the reason it is
left out; they are listed in the report. Closure (--require-closure): every bin the coverage
module declares (each `NAME: cover property` of rtl/nand_channel_ctrl_coverage.sv, the per-way
ones once per way the design has) is in the data, and none that it does not declare; every bin
not excluded hit; every exclusion names a bin in the data or a line with coverage points (a stale
one fails); and line coverage at least --min-line percent (95). A build that lost its user
coverage (--coverage-user) or renamed the instance so that no bin is found cannot reach closure.

  scripts/rtl_regression.py [--build build] [--out rtl-coverage] [--seeds 32] [--ops 6000]
                            [--jobs 2] [--require-closure] [--min-line 95]
                            [--exclusions FILE] [--from-merged DAT]

--from-merged DAT analyses coverage data merged before (OUT/merged.dat of an earlier run) instead
of running seeds: the closure checks on their own, as the tests of the checks use them.

Writes OUT/report.txt, OUT/report.html, OUT/coverage.json, OUT/merged.dat and OUT/annotated/
(verilator_coverage --annotate).
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(ROOT, "rtl", "nand_channel_ctrl.sv")
EXCLUSIONS = os.path.join(ROOT, "testbenches", "rtl", "coverage_exclusions.txt")
COVERAGE_SV = os.path.join(ROOT, "rtl", "nand_channel_ctrl_coverage.sv")

# Knob profiles, taken in turn by the seeds (testbenches/rtl/rtl_stress.cpp's options).
PROFILES = [
    ("default", []),
    ("independent reads of single planes on 8-plane dies", ["--indep", "on", "--planes", "8", "--masks", "single",
                                                              "--reads", "90", "--programs", "5"]),
    ("independent reads of any planes on 8-plane dies, one way", ["--indep", "on", "--planes", "8", "--masks", "any",
                                                                   "--reads", "95", "--programs", "3", "--way-skew", "90"]),
    ("programs and held completions", ["--reads", "30", "--programs", "50", "--hold", "45"]),
    ("bursts to one way", ["--burst", "12", "--way-skew", "85", "--ahead", "5", "--hold", "5"]),
    ("erases", ["--reads", "20", "--programs", "20", "--masks", "single"]),
    ("starts ahead, completions held", ["--ahead", "70", "--hold", "60", "--indep", "on"]),
    ("one-plane dies", ["--planes", "1", "--indep", "off"]),
]


def parse_dat(path):
    """Verilator coverage data: a list of (fields, count); fields from the point's key."""
    points = []
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = re.match(r"^C '(.*)' (\d+)\s*$", line)
            if not m:
                continue
            fields = {}
            for part in m.group(1).split("\x01"):
                if "\x02" in part:
                    k, v = part.split("\x02", 1)
                    fields[k] = v
            points.append((fields, int(m.group(2))))
    return points


def declared_bins():
    """The bins the coverage module declares, as the report names them: each top-level
    `NAME: cover property`, and each of the per-way macro's once per way it is expanded for
    (g_wayK.NAME, K below the design's WAYS)."""
    src = open(COVERAGE_SV).read()
    ways = int(re.search(r"parameter\s+int\s+WAYS\s*=\s*(\d+)", open(RTL).read()).group(1))
    macro = re.search(r"`define\s+SSDVP_COVER_WAY\(k\)(.*?)\n\s*end\s*\n", src, re.S)
    if not macro:
        sys.exit(f"{COVERAGE_SV}: no SSDVP_COVER_WAY macro: update declared_bins() in {__file__}")
    label = r"^\s*(c_\w+)\s*:\s*cover\s+property"
    top = re.findall(label, src[:macro.start()] + src[macro.end():], re.M)
    per_way = re.findall(r"(c_\w+)\s*:\s*cover\s+property", macro.group(1))
    expanded = [int(k) for k in re.findall(r"^\s*`SSDVP_COVER_WAY\((\d+)\)", src, re.M)]
    return set(top) | {f"g_way{k}.{b}" for k in expanded if k < ways for b in per_way}


def load_exclusions(path):
    lines, bins = {}, {}
    if os.path.exists(path):
        for raw in open(path):
            raw = raw.strip()
            if not raw or raw.startswith("#"):
                continue
            kind, what, reason = (raw.split(None, 2) + ["", ""])[:3]
            if not reason:
                sys.exit(f"{path}: '{raw}': an exclusion needs a reason")
            if kind == "line" and what.isdigit():
                lines[int(what)] = reason
            elif kind == "bin":
                bins[what] = reason
            else:
                sys.exit(f"{path}: '{raw}': 'line N reason' or 'bin NAME reason'")
    return lines, bins


def run_seed(binary, out, seed, ops, profile):
    name, knobs = profile
    dat = os.path.join(out, "seeds", f"seed-{seed}.dat")
    cmd = [binary, str(ops), str(seed), "--coverage", dat] + knobs
    p = subprocess.run(cmd, capture_output=True, text=True)
    first = (p.stdout.strip().splitlines() or [""])[0]
    return seed, name, p.returncode, first, p.stdout[-2000:] + p.stderr[-2000:], dat, cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default="rtl-coverage")
    ap.add_argument("--seeds", type=int, default=32)
    ap.add_argument("--ops", type=int, default=6000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--require-closure", action="store_true")
    ap.add_argument("--min-line", type=float, default=95.0)
    ap.add_argument("--exclusions", default=EXCLUSIONS, help="the exclusions file (default %(default)s)")
    ap.add_argument("--from-merged", help="analyse this merged coverage data instead of running seeds")
    a = ap.parse_args()
    if a.seeds < 1 or a.ops < 1 or a.jobs < 1:
        sys.exit("--seeds, --ops and --jobs: at least 1")
    os.makedirs(a.out, exist_ok=True)
    merged = os.path.join(a.out, "merged.dat")
    failed = []
    if a.from_merged:
        if not os.path.exists(a.from_merged):
            sys.exit(f"--from-merged {a.from_merged}: no such file")
        merged = a.from_merged
        a.seeds = a.ops = 0
    else:
        binary = os.path.join(a.build, "testbenches", "rtl_stress_cov")
        if not os.path.exists(binary):
            sys.exit(f"{binary}: not built (cmake --build {a.build} --target rtl_stress_cov)")
        os.makedirs(os.path.join(a.out, "seeds"), exist_ok=True)
        for f in os.listdir(os.path.join(a.out, "seeds")):
            os.remove(os.path.join(a.out, "seeds", f))

        with ThreadPoolExecutor(a.jobs) as pool:
            results = list(pool.map(lambda s: run_seed(binary, a.out, s, a.ops, PROFILES[(s - 1) % len(PROFILES)]),
                                    range(1, a.seeds + 1)))
        failed = [r for r in results if r[2] != 0 or not r[3].startswith("clean")]
        for seed, name, rc, first, out, dat, cmd in failed:
            print(f"seed {seed} ({name}) failed (exit {rc}): {first}\n  {' '.join(cmd)}\n{out}", file=sys.stderr)

        dats = [r[5] for r in results if os.path.exists(r[5])]
        subprocess.run(["verilator_coverage", "--write", merged] + dats, check=True, capture_output=True)
        subprocess.run(["verilator_coverage", "--annotate", os.path.join(a.out, "annotated"), merged], check=True,
                       capture_output=True)

    excl_lines, excl_bins = load_exclusions(a.exclusions)
    declared = declared_bins()
    points = parse_dat(merged)
    rtl_name = os.path.basename(RTL)
    line_pts, toggle_pts, bins = {}, [], {}
    for f, n in points:
        page = f.get("page", "")
        if page.startswith("v_user"):
            hier = f.get("h", "")
            key = hier.split("u_coverage.", 1)[1] if "u_coverage." in hier else (f.get("o") or hier)
            bins[key] = bins.get(key, 0) + n
        elif os.path.basename(f.get("f", "")) != rtl_name:
            continue
        elif page.startswith("v_toggle"):
            toggle_pts.append((f, n))
        elif page.startswith("v_line") or page.startswith("v_branch"):
            ln = int(f.get("l", "0"))
            k = (ln, f.get("o", ""), page.split("/")[0])
            line_pts[k] = line_pts.get(k, 0) + n
    src = open(RTL).read().splitlines()
    counted = {k: v for k, v in line_pts.items() if k[0] not in excl_lines}
    line_hit = sum(1 for v in counted.values() if v > 0)
    line_pct = 100.0 * line_hit / len(counted) if counted else 0.0
    missed_lines = sorted(k for k, v in counted.items() if v == 0)
    toggle_hit = sum(1 for _, n in toggle_pts if n > 0)
    toggle_pct = 100.0 * toggle_hit / len(toggle_pts) if toggle_pts else 0.0
    must = {k: v for k, v in bins.items() if k not in excl_bins}
    missed_bins = sorted(k for k, v in must.items() if v == 0)
    unknown_excl = sorted(b for b in excl_bins if b not in bins)
    stale_lines = sorted(ln for ln in excl_lines if not any(k[0] == ln for k in line_pts))
    absent_bins = sorted(declared - set(bins))     # declared, not in the data: a lost --coverage-user, a rename
    undeclared_bins = sorted(set(bins) - declared)  # in the data, not declared: the declaration parse is stale

    closed = (not missed_bins and line_pct >= a.min_line and not failed and not absent_bins and not undeclared_bins
              and not unknown_excl and not stale_lines)
    summary = {
        "seeds": a.seeds, "operations_per_seed": a.ops, "failed_seeds": len(failed),
        "line": {"points": len(counted), "hit": line_hit, "percent": round(line_pct, 2),
                 "excluded": {str(k): v for k, v in excl_lines.items()}},
        "toggle": {"points": len(toggle_pts), "hit": toggle_hit, "percent": round(toggle_pct, 2)},
        "functional": {"bins": len(must), "hit": len(must) - len(missed_bins), "never_hit": missed_bins,
                       "declared": len(declared), "declared_not_found": absent_bins,
                       "found_not_declared": undeclared_bins,
                       "excluded": excl_bins, "counts": dict(sorted(bins.items()))},
        "stale_exclusions": {"bins": unknown_excl, "lines": stale_lines},
        "closure": closed,
    }
    with open(os.path.join(a.out, "coverage.json"), "w") as f:
        json.dump(summary, f, indent=2)

    t = []
    t.append(f"Channel controller coverage: {a.seeds} seeds x {a.ops} operations "
             f"({len(PROFILES)} knob profiles in turn), {len(failed)} failed")
    t.append(f"line (rtl/{rtl_name}, line and branch points): {line_hit}/{len(counted)} = {line_pct:.1f}%"
             f" (closure needs {a.min_line:.0f}%)")
    t.append(f"toggle (rtl/{rtl_name} signals): {toggle_hit}/{len(toggle_pts)} = {toggle_pct:.1f}% (reported, not a goal)")
    t.append(f"functional: {len(must) - len(missed_bins)}/{len(must)} bins hit; {len(bins)} in the data of "
             f"{len(declared)} declared in rtl/{os.path.basename(COVERAGE_SV)}")
    t.append("closure: " + ("reached" if closed else "NOT reached"))
    if absent_bins:
        t.append(f"\nbins declared but not in the coverage data ({len(absent_bins)}: a build without --coverage-user, "
                 "or an instance renamed):")
        t += [f"  {b}" for b in absent_bins]
    if undeclared_bins:
        t.append(f"\nbins in the data that the coverage module does not declare ({len(undeclared_bins)}):")
        t += [f"  {b}" for b in undeclared_bins]
    if missed_bins:
        t.append("\nbins never hit:")
        t += [f"  {b}" for b in missed_bins]
    if missed_lines:
        t.append("\nline points never hit:")
        t += [f"  {ln}: {kind} {o}: {src[ln - 1].strip() if 0 < ln <= len(src) else ''}" for ln, o, kind in missed_lines]
    if excl_lines or excl_bins:
        t.append("\nexcluded:")
        t += [f"  line {k}: {v}" for k, v in sorted(excl_lines.items())]
        t += [f"  bin {k}: {v}" for k, v in sorted(excl_bins.items())]
    if unknown_excl:
        t.append("\nexclusions naming no bin (stale): " + ", ".join(unknown_excl))
    if stale_lines:
        t.append("\nexclusions naming a line with no coverage point (stale): " + ", ".join(map(str, stale_lines)))
    t.append("\nbins:")
    t += [f"  {k:<48} {v:>10}" for k, v in sorted(bins.items())]
    text = "\n".join(t) + "\n"
    with open(os.path.join(a.out, "report.txt"), "w") as f:
        f.write(text)

    hits = {}
    for (ln, _, _), v in line_pts.items():
        hits[ln] = min(hits.get(ln, v), v)
    rows = []
    for i, s in enumerate(src, 1):
        cls = "" if i not in hits else ("miss" if hits[i] == 0 and i not in excl_lines else "hit")
        rows.append(f'<tr class="{cls}"><td>{i}</td><td>{hits.get(i, "")}</td><td><pre>{html.escape(s)}</pre></td></tr>')
    bins_rows = "".join(f'<tr class="{"miss" if v == 0 and k not in excl_bins else "hit"}"><td>{html.escape(k)}</td>'
                        f'<td>{v}</td><td>{html.escape(excl_bins.get(k, ""))}</td></tr>' for k, v in sorted(bins.items()))
    page = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>ssdvp channel controller coverage</title>
<style>body{{font-family:sans-serif}} td pre{{margin:0}} tr.miss{{background:#fcc}} tr.hit td:nth-child(2){{color:#070}}
table{{border-collapse:collapse}} td{{padding:0 6px;vertical-align:top}}</style></head><body>
<h1>Channel controller coverage</h1><pre>{html.escape(chr(10).join(t[:5]))}</pre>
<h2>Functional bins</h2><table><tr><th>bin</th><th>count</th><th>excluded because</th></tr>{bins_rows}</table>
<h2>rtl/{rtl_name}: line and branch points (count, the lowest on the line)</h2><table>{"".join(rows)}</table>
</body></html>"""
    with open(os.path.join(a.out, "report.html"), "w") as f:
        f.write(page)
    print(text, end="")
    print(f"report: {os.path.join(a.out, 'report.html')}")
    if failed:
        return 1
    if a.require_closure and not closed:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
