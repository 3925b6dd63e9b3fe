"""No path outside the repository in docs/ and scripts/: a reader of the repository has only
the repository, so the docs and the scripts (prose, comments and strings alike) cite papers
through docs/references.md and never point at a folder of the machine they were written on.

Scanned: every file under docs/ and scripts/ that git tracks or would add (new, not ignored)
and that is text (no NUL byte; pictures are skipped). A line is flagged when it holds
  1. `../shared` (any number of `../` before it): the sibling folder of papers and notes next
     to a checkout, which a clone does not have;
  2. an absolute path into a machine's own top-level folders: /work/, /home/, /root/, /mnt/,
     /media/, /srv/, /scratch/, /Users/, /nfs/, /shared/, /data/ (nothing a repository ships
     lives there);
  3. any other absolute path that names reading material (a file ending in .txt, .md, .pdf,
     .htm(l), .rst, .tex, .doc(x), .ps) or is the target of a markdown link `](/...)`: e.g.
     /tmp/notes/paper.txt, /opt/papers/x.pdf. The virtual file systems /dev/, /proc/, /sys/
     are exempt;
  4. a relative path starting with `../` that, taken from the file's own folder, leaves the
     repository.
Not flagged, on purpose: system paths used as such (`#!/usr/bin/env python3`, /dev/null,
/proc/self/status, /usr/bin/...), and scratch places a command writes to or works in (an
example command's `--state-cache /tmp/p960/state`, `cmake -B /tmp/build-traces`, Dask's
local_directory="/tmp"): those name no material the reader is sent to read.
Exit status 0 when nothing is flagged; else each flagged line is printed as FILE:LINE: PATH
(rule) and the test fails. Also: every citation `references.md#ANCHOR` in docs/ and scripts/
names an anchor docs/references.md has (`<a id="ANCHOR">`).
"""
import re
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("docs", "scripts")
MACHINE_FOLDERS = ("work", "home", "root", "mnt", "media", "srv", "scratch", "Users", "nfs", "shared", "data")
DOCUMENT = r"\.(?:txt|md|pdf|html?|rst|tex|docx?|ps)\b"
VIRTUAL = ("/dev/", "/proc/", "/sys/")

# A path token: starts at the beginning of the line or after a character that cannot be part
# of a path (so "a/b/c" does not yield "/b/c", and ".../" is not "../").
START = r"(?:(?<=^)|(?<=[\s`'\"(\[<{=,;:|]))"
SHARED = re.compile(r"(?<![\w.])(?:\.\./)+shared\b[^\s`'\")\]>,;]*")
MACHINE = re.compile(START + r"/(?:" + "|".join(MACHINE_FOLDERS) + r")/[^\s`'\")\]>,;]*")
ABSOLUTE = re.compile(START + r"/[A-Za-z0-9_.~-][^\s`'\")\]>,;]*")
LINK = re.compile(r"\]\((/[^)\s]*)\)")
PARENT = re.compile(r"(?<![\w./])(?:\.\./)+[^\s`'\")\]>,;]*")


def tracked_text_files():
    """(path relative to ROOT, text) of every tracked or new text file under SCANNED."""
    try:
        names = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                                "--exclude-standard", "--", *SCANNED],
                               check=True, capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):     # not a checkout: every file there
        names = [str(p.relative_to(ROOT)) for d in SCANNED for p in (ROOT / d).rglob("*") if p.is_file()]
    out = []
    for name in filter(None, names):
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue
        out.append((name, data.decode("utf-8", errors="replace")))
    return out


def leaves_repository(name, relative):
    """Whether a ../ path taken from the folder of file `name` ends outside ROOT."""
    target = (ROOT / name).parent
    for part in relative.split("/"):
        if part == "..":
            target = target.parent
        elif part in ("", "."):
            continue
        else:
            break
    return not (target == ROOT or ROOT in target.parents)


def flagged_in_line(name, line):
    """[(path, rule)] of the paths outside the repository on one line of file `name`."""
    found = [(m.group(0), "../shared: the sibling folder next to a checkout") for m in SHARED.finditer(line)]
    found += [(m.group(0), "a machine's own folder") for m in MACHINE.finditer(line)]
    seen = {p for p, _ in found}
    for m in ABSOLUTE.finditer(line):
        path = m.group(0)
        if path in seen or path.startswith(VIRTUAL):
            continue
        if re.search(DOCUMENT, path):
            found.append((path, "reading material outside the repository"))
            seen.add(path)
    for m in LINK.finditer(line):
        if m.group(1) not in seen and not m.group(1).startswith(VIRTUAL):
            found.append((m.group(1), "a link outside the repository"))
            seen.add(m.group(1))
    for m in PARENT.finditer(line):
        if m.group(0) not in seen and not SHARED.match(m.group(0)) and leaves_repository(name, m.group(0)):
            found.append((m.group(0), "a relative path that leaves the repository"))
    return found


def flagged(files):
    """['FILE:LINE: PATH (rule)'] over (name, text) pairs."""
    out = []
    for name, text in files:
        for number, line in enumerate(text.splitlines(), 1):
            out += [f"{name}:{number}: {path} ({rule})" for path, rule in flagged_in_line(name, line)]
    return out


def dangling_citations(files, references):
    """['FILE:LINE: references.md#ANCHOR'] of citations whose anchor references.md lacks."""
    anchors = set(re.findall(r'<a id="([^"]+)"', references))
    return [f"{name}:{number}: references.md#{a}" for name, text in files
            for number, line in enumerate(text.splitlines(), 1)
            for a in re.findall(r"references\.md#([\w-]+)", line) if a not in anchors]


class NoPathOutsideTheRepository(unittest.TestCase):
    def test_the_rule_flags_what_it_should_and_nothing_else(self):
        bad = ["(`/work/shared/papers/dtree-readahead.txt`)", "../shared/papers/README.md section 2",
               "see ../../shared/notes", "/home/me/papers/lapt.pdf", "[paper](/tmp/papers/lapt.txt)",
               "text in /tmp/notes/paper.txt", "\"/mnt/nas/traces/x.trace\"", "[x](/opt/docs/index)"]
        good = ["#!/usr/bin/env python3", "cmd > /dev/null 2>&1", "/proc/self/status",
                "--state-cache /tmp/p960/state", "cmake -S traces -B /tmp/build-traces -G Ninja",
                "local_directory=\"/tmp\"", "tags PART/.../SCHEME", "[reliability.md](../reliability.md)",
                "docs/results/lapt.md", "[references](../references.md#lapt)", "scripts/ssdvp_sweep/experiments/"]
        for line in bad:
            self.assertTrue(flagged_in_line("docs/results/x.md", line), f"not flagged: {line}")
        for line in good:
            self.assertEqual(flagged_in_line("docs/results/x.md", line), [], f"flagged: {line}")
        self.assertTrue(flagged_in_line("docs/x.md", "../../elsewhere/notes"), "a ../ path leaving the repository")

    def test_docs_and_scripts_name_no_path_outside_the_repository(self):
        files = tracked_text_files()
        self.assertTrue(any(n.startswith("docs/") for n, _ in files), "no file under docs/ scanned")
        found = flagged(files)
        self.assertEqual(found, [], "paths outside the repository (cite papers through docs/references.md):\n" +
                         "\n".join(found))

    def test_every_citation_names_an_anchor_of_references_md(self):
        references = (ROOT / "docs" / "references.md").read_text()
        self.assertEqual(dangling_citations(tracked_text_files(), references), [])
        self.assertEqual(dangling_citations([("x.md", "[lapt](references.md#nosuch)")], references),
                         ["x.md:1: references.md#nosuch"])


if __name__ == "__main__":
    sys.exit(unittest.main())
