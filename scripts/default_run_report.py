#!/usr/bin/python3
"""The default run's figures, written from the runs themselves so they cannot drift: runs
`ssdvp` with no arguments and with --set ftl.op=0.28, then writes docs/results/default-run.md
(table and prose), docs/results/default-read-cdf.png and the sample output in README.md
(between its default-run markers).

  scripts/default_run_report.py [--build build] [--runs DIR]     # run and write
  scripts/default_run_report.py --check [--runs DIR]             # run and compare, write nothing

--check fails (exit 1), naming the lines, when the committed table or README sample differs from
this build's runs (the simulation is deterministic; only the wall-clock line of the sample is
left out of the comparison). A run that fails (exit status not 0, not completed, mismatches,
unexplained errors) is an error (exit 2) either way.
Leaves out: the wall time quoted in the README's prose.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "results" / "default-run.md"
PNG = ROOT / "docs" / "results" / "default-read-cdf.png"
README = ROOT / "README.md"
BEGIN, END = "<!-- default-run sample: begin (scripts/default_run_report.py) -->", "<!-- default-run sample: end -->"
RUNS = [("op7", "op 0.07 (default)", []), ("op28", "op 0.28", ["--set", "ftl.op=0.28"])]


def run(binary, folder, sets):
    """Runs ssdvp into `folder`; returns (summary stdout, run.json). Any failure exits 2."""
    cmd = [str(binary), "run", "--out", str(folder), "--set", "sim.progress=false"] + sets
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-5:] + proc.stdout.strip().splitlines()[-5:])
        sys.exit(f"default_run_report: {' '.join(cmd)} exited {proc.returncode}:\n{tail}")
    r = json.loads((folder / "run.json").read_text())
    i = r.get("integrity", {})
    if not r.get("completed") or i.get("mismatches") or i.get("unexplained_errors"):
        sys.exit(f"default_run_report: {folder}/run.json: run not clean (completed={r.get('completed')}, "
                 f"mismatches={i.get('mismatches')}, unexplained={i.get('unexplained_errors')})")
    return proc.stdout, r


def table(results):
    rows = ["| run | WAF | IOPS | read p50 | read p99 | read p99.9 | read max | reads checked | failed reads |",
            "|---|---|---|---|---|---|---|---|---|"]
    for (_, label, _), r in zip(RUNS, results):
        lat = r["ops"]["read"]["latency_us"]
        i = r["integrity"]
        rows.append(f"| {label} | {r['waf']:.2f} | {r['total']['iops']:,.0f} | {lat['p50']:,.0f} us | "
                    f"{lat['p99']:,.0f} us | {lat['p99.9']:,.0f} us | {lat['max']:,.0f} us | "
                    f"{i['reads_checked']:,} | {i['reads_failed_media_error']:,} |")
    return "\n".join(rows)


def document(results):
    return f"""# The default run: read latency against over-provisioning

`ssdvp` with no arguments (16 GiB MLC drive, 7% over-provisioning, aged to the GC steady state;
70/30 random read/write, 4 KiB, QD32) and the same with `--set ftl.op=0.28`. Written by
`scripts/default_run_report.py` from the runs it makes; `ctest -R docs.default_run` fails when
these figures differ from the build's.

![Read latency CDF](default-read-cdf.png)

{table(results)}

Reads below ~75 us are served from the DRAM write buffer; the rest wait for their die behind GC
copies and host programs (at most `ftl.die_program_queue` write-buffer programs per die), so more
over-provisioning (less GC) moves the whole curve left.

Reproduce:

```sh
scripts/default_run_report.py            # both runs, this page, the plot, README's sample output
```
"""


def readme_block(summary):
    # The results path is the default output folder, as a user running `ssdvp` sees it.
    lines = [l if not l.startswith("  results: ") else "  results: ssdvp-out/run.json" for l in summary.splitlines()]
    return BEGIN + "\n```\n" + "\n".join(lines) + "\n```\n" + END


def replace_block(text, block):
    a, b = text.find(BEGIN), text.find(END)
    if a < 0 or b < 0:
        sys.exit(f"default_run_report: {README}: markers '{BEGIN}' / '{END}' not found")
    return text[:a] + block + text[b + len(END):]


def differences(old, new, ignore=lambda line: False):
    o = [l for l in old.splitlines() if not ignore(l)]
    n = [l for l in new.splitlines() if not ignore(l)]
    return [f"  committed: {a}\n  this build: {b}" for a, b in zip(o, n) if a != b] + (
        [f"  line counts differ: {len(o)} vs {len(n)}"] if len(o) != len(n) else [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--runs", default=None, help="folder for the two runs (default: BUILD/default-run-report)")
    ap.add_argument("--check", action="store_true", help="compare with the committed figures, write nothing")
    a = ap.parse_args()
    binary = Path(a.build) / "platforms" / "ssdvp"
    if not binary.exists():
        sys.exit(f"default_run_report: {binary} not found (build first)")
    runs = Path(a.runs) if a.runs else Path(a.build) / "default-run-report"
    runs.mkdir(parents=True, exist_ok=True)
    outs, results = [], []
    for name, _, sets in RUNS:
        out, r = run(binary, runs / name, sets)
        outs.append(out)
        results.append(r)
    doc, block = document(results), readme_block(outs[0])
    readme = README.read_text()
    if a.check:
        bad = differences(DOC.read_text(), doc)
        replace_block(readme, "")   # exits naming the markers when they are missing
        a_, b_ = readme.find(BEGIN), readme.find(END) + len(END)
        bad += differences(readme[a_:b_], block, ignore=lambda l: " s wall (" in l)
        if bad:
            print("default_run_report: committed figures differ from this build's runs "
                  "(run scripts/default_run_report.py):\n" + "\n".join(bad))
            return 1
        print("default_run_report: docs/results/default-run.md and README's sample match this build's runs")
        return 0
    DOC.write_text(doc)
    README.write_text(replace_block(readme, block))
    sys.path.insert(0, str(ROOT / "scripts"))
    import plot_latency_cdf
    sys.argv = ["plot_latency_cdf.py", "read", str(PNG)] + [str(runs / name) for name, _, _ in RUNS]
    plot_latency_cdf.main()
    print(f"default_run_report: wrote {DOC.relative_to(ROOT)}, {PNG.relative_to(ROOT)}, README.md sample")
    return 0


if __name__ == "__main__":
    sys.exit(main())
