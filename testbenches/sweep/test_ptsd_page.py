"""The PTSD page is written whole from the runs it quotes (issue 19, point 5): from the scaled
experiment's real store (argument: the folder ptsd.scaled.runs wrote) the report writes
ptsd-scaled.md, whose table cells and findings are those runs' figures (throughput, read p50 and
p99.9, WAF per scheme; the WRITEOPT/PART-SCHED ratio); the old script wrote only the tables
file and left the page's figures to be copied by hand. And docs/results/ptsd.md, the full-size
page, is that generator's output (its marker) with the same figures as ptsd-tables-full.md,
which the same run wrote."""
import re
import sys
import tempfile
import unittest
from pathlib import Path

from sweep_test_support import ROOT

from ssdvp_sweep.experiments.ptsd import SCHEMES, Ptsd, by_part, lat, throughput
from ssdvp_sweep.store import ResultsStore

SOURCE = Path(sys.argv.pop(1)) if len(sys.argv) > 1 else ROOT / "build" / "ptsd-test"
MARKER = "Written by scripts/ssdvp_sweep/experiments/ptsd_report.py from the runs it quotes"


def table_rows(text, header_start):
    """{first cell: [cells]} of the markdown table whose header starts with header_start."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells
    return rows


class PtsdPageFromRuns(unittest.TestCase):
    def test_page_figures_are_the_runs_figures(self):
        results = ResultsStore(SOURCE).tagged_rows("ptsd")
        experiment = Ptsd()
        with tempfile.TemporaryDirectory() as tmp:
            experiment.report(results, "scaled", tmp, experiment.findings(results))
            page = (Path(tmp) / "ptsd-scaled.md").read_text()
        self.assertIn(MARKER, page)
        paper = by_part(results, "paper")
        rows = table_rows(page, "| scheme | sched | throughput")
        self.assertEqual(sorted(rows), sorted(SCHEMES))
        for s in SCHEMES:
            r, cells = paper[s], rows[s]
            self.assertEqual(cells[2], f"{throughput(r):,.0f}", s)
            self.assertEqual(cells[4], f"{lat(r, 'p50'):,.0f}", s)
            self.assertEqual(cells[6], f"{lat(r, 'p99.9'):,.0f}", s)
            self.assertEqual(cells[12], f"{r['waf']:.2f}", s)
        ratio = throughput(paper["writeopt"]) / throughput(paper["part-sched"])
        self.assertRegex(page, rf"WRITEOPT total throughput about 1.10x PART-SCHED \(1.05-1.30x\) \| {ratio:.2f}x \|")
        self.assertIn("The same checks on the runs of this page: **passed**.", page)

    def test_committed_full_page_matches_its_tables(self):
        page = (ROOT / "docs" / "results" / "ptsd.md").read_text()
        tables = (ROOT / "docs" / "results" / "ptsd-tables-full.md").read_text()
        self.assertIn(MARKER, page, "docs/results/ptsd.md must be the generator's output, not a hand edit")
        on_page = table_rows(page, "| scheme | sched | throughput")
        in_tables = table_rows(tables, "| scheme | sched | throughput")
        for s in SCHEMES:
            self.assertEqual(on_page[s][2:8], in_tables[s][2:8], f"{s}: throughput and latencies differ")
        builds = re.findall(r"ssdvp build `([0-9a-f]+)`", page)
        self.assertEqual(len(builds), 1)


if __name__ == "__main__":
    unittest.main()
