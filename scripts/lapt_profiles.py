#!/usr/bin/env python3
"""Synthetic block traces shaped like four workloads of the LAPT paper (docs/references.md#lapt;
Exchange, Photoshop, Random, General: its Table 2), whose traces are not public, as
DiskSim/MQSim ASCII (`time_ns device lba_sector size_sectors type`, type 0 = write, 1 = read,
512-byte sectors) for `trace:PATH,replay=closed,iodepth=N`. docs/traces.md, "Synthetic profiles
of the LAPT paper's traces", has the measured figures.

Models: the paper's request count, write fraction and mean write size, held at every scale
(counts are allocated, not sampled); request sizes from a table of 4 KiB multiples per profile
and operation; sequential runs (the requests of a run have one size and follow each other in
address and in time); hot and cold logical regions per operation, with Zipf skew inside the hot
set; overlap of reads and writes (reads of recently written data, or writes into recently read
data), which LAPT's +1 per write / -1 per read sees; Poisson arrival times. Every request is
4 KiB aligned (lba and size multiples of 8 sectors: the drive's sector is 4 KiB) and lies inside
[0, span).
Leaves out: what Table 2 does not state is chosen, not measured (read sizes, hot sets, skew,
run lengths, overlap, arrival rates); time structure (bursts, idle periods, daily load); a real
file system's layout; trims and flushes; several devices or processes (device is always 0).

  scripts/lapt_profiles.py PROFILE --out FILE [--span-sectors N] [--scale F] [--seed S]
  scripts/lapt_profiles.py --stats FILE      # requests, write fraction, mean sizes, pages touched
  scripts/lapt_profiles.py --list

From Python (scripts/ on sys.path): generate(profile, span_sectors, scale, seed) -> RECORD array,
write_profile(path, ...), stats(path), summarize(records); bad arguments raise BadArgument.

How a trace is made (the numbers are the profile tables below):
  1. n = round(paper requests x scale), of which round(n x write fraction) are writes.
  2. Each operation's requests are shared among the size classes of its table by largest
     remainder, so the mean size is the table's at any scale; each class's requests are cut into
     runs of geometric length with the class's mean `run` (capped so that a run fits in the
     span). The runs of both operations are shuffled into one order.
  3. The span is cut into 1 MiB extents (256 pages: on the lapt-slc-mlc platform, the logical
     block LAPT counts, one SLC superblock). A seeded random layout orders them, hottest first:
     the write hot set is its first hot_fraction; the read hot set is the write hot set's
     hottest extents for its first hot_overlap share, then the extents after the write hot set.
     A run starts, with its operation's hot_share, in a hot extent drawn by a Zipf law of
     exponent hot_skew over the set (0 = uniform), otherwise in a uniformly drawn extent outside
     that set; at a uniform page offset; moved back if it would end beyond the span.
  4. With probability follow_share, a run of the follower operation starts instead inside one of
     the last follow_window runs of the other operation (uniformly chosen, uniform page offset).
  5. Inter-arrival times are exponential with mean 1 / rate_per_s (at least 1 ns), so times
     increase strictly from 0; replay=closed ignores them.
Randomness: numpy's PCG64 seeded with (seed, CRC-32 of the profile name); the same arguments give
a byte-identical file with the same numpy (the project's venv fixes it).

Why these parameters ("quoted" = the paper's words, translated; the rest is a plausible choice):
  exchange ("server activity", a mail server's SNIA trace): writes are transaction-log appends
    (4 KiB, in runs of 4) and database pages (8 KiB; 16-64 KiB checkpoint flushes in short runs):
    24.80 sectors against the paper's 24.83. The hot 5% of the span (active mailboxes, the log),
    Zipf 0.8, takes 85% of the write runs: many small hot writes on a skewed hot set. Reads are
    mostly 8 KiB pages (27.2 sectors); 30% of read runs read one of the last 1,024 write runs
    (mail just delivered), 40% of the others the same hot set (the database is read and written).
  photoshop (images edited and saved again and again: "many reads, because images are read often
    and only the modified parts are saved"; "many sequential requests, because images are
    large"): reads are 64 and 128 KiB in runs of 32 (2-4 MiB of an image file) plus small
    metadata reads (138.8 sectors); 70% of read runs fall in the images in use, a hot 10% of the
    span, uniform. Writes are small (4-16 KiB, alone) or large (64 KiB-1 MiB in runs of 8):
    415.4 sectors against 414.21. 60% of write runs save modified parts of one of the last 4
    read runs (the image being edited); half of the others go to a 5% scratch area, disjoint
    from the images, half anywhere.
  random (a disk benchmark's random-write test: "short writes repeated"): 97.5% of the writes are
    4 KiB, 2% 8 KiB, 0.5% 16 KiB: exactly 8.28 sectors, "just over 4 KiB". 98% of them fall
    uniformly in a test file of 10% of the span (~100 MiB on the default 1 GiB, a common
    benchmark test-file size: each page is written ~1.3 times at full size), the rest elsewhere
    (file-system metadata). The 1% of reads are 4 or 32 KiB (19.2 sectors), half of them in the
    test file; no overlap model.
  general (8 hours of ordinary PC use, "between Photoshop and Random"): 60.5% of writes are 4 KiB
    (metadata, registry, logs, in runs of 2), the rest 8-128 KiB with runs up to 8 (saved and
    downloaded files): 27.72 sectors against 27.67. Reads go from 4 KiB singletons to 128 KiB
    runs of 16 (programs and files loading: partly sequential), 51.6 sectors. Write hot set 5%
    of the span, Zipf 0.5, with 70% of the write runs; read hot set 10%, Zipf 0.5, with 50% of
    the read runs, a fifth of it shared with the write hot set (metadata is both; programs are
    only read, logs only written); 10% of read runs re-read one of the last 256 write runs.
  rate_per_s: general's 10.42/s is the paper's 300,000 requests in "about 8 hours"; the others
    are plausible for the machines of the time (a mail server 250/s, an editing session 20/s, an
    HDD-era 4 KiB random-write benchmark 300/s).
"""
import argparse
import math
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__":          # the command runs under the project's venv, which has numpy
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from ssdvp_sweep.interpreter import ensure_sweep_python
    ensure_sweep_python()

import numpy as np  # noqa: E402

PAGE_SECTORS = 8                         # the drive's 4 KiB sector, in 512-byte trace sectors
EXTENT_PAGES = 256                       # 1 MiB: unit of the hot/cold layout
DEFAULT_SPAN_SECTORS = 2 * 1024 * 1024   # 1 GiB
DEFAULT_SCALE = 1.0
DEFAULT_SEED = 1
MAX_SPAN_SECTORS = 2 ** 54               # byte offsets stay within the trace reader's 64 bits
MAX_REQUESTS = 50_000_000                # generate() holds the trace in memory (~2 GB of text)


@dataclass(frozen=True)
class SizeClass:
    pages: int      # request size in 4 KiB pages
    share: float    # fraction of the operation's requests
    run: float      # mean requests per sequential run (geometric; 1 = every request alone)


@dataclass(frozen=True)
class OpModel:
    hot_fraction: float     # fraction of the span's 1 MiB extents in this operation's hot set
    hot_skew: float         # Zipf exponent over the hot extents (0 = uniform)
    hot_share: float        # fraction of independently placed runs that start in the hot set
    sizes: tuple            # SizeClass rows, shares summing to 1


@dataclass(frozen=True)
class Profile:
    name: str
    what: str
    paper_requests: int             # Table 2
    paper_write_fraction: float     # Table 2
    paper_mean_write_sectors: float  # Table 2
    rate_per_s: float               # mean arrival rate (timestamps only)
    write: OpModel
    read: OpModel
    hot_overlap: float              # fraction of the read hot set inside the write hot set
    follower: str                   # "read" or "write": the operation that revisits the other's runs
    follow_share: float             # fraction of the follower's runs placed in a recent run of the other (0: none)
    follow_window: int              # how many of the other operation's latest runs qualify


EXCHANGE = Profile(
    name="exchange", what="mail server: many small hot writes, skewed hot set, reads of recent mail",
    paper_requests=204_571, paper_write_fraction=0.79, paper_mean_write_sectors=24.83,
    rate_per_s=250.0,
    write=OpModel(hot_fraction=0.05, hot_skew=0.8, hot_share=0.85, sizes=(
        SizeClass(pages=1, share=0.38, run=4),      # transaction-log appends
        SizeClass(pages=2, share=0.36, run=1),      # 8 KiB database pages
        SizeClass(pages=4, share=0.12, run=1),
        SizeClass(pages=8, share=0.09, run=2),      # checkpoint flushes
        SizeClass(pages=16, share=0.05, run=4),
    )),
    read=OpModel(hot_fraction=0.05, hot_skew=0.8, hot_share=0.40, sizes=(
        SizeClass(pages=1, share=0.20, run=1),
        SizeClass(pages=2, share=0.50, run=1),      # 8 KiB database pages
        SizeClass(pages=4, share=0.15, run=1),
        SizeClass(pages=8, share=0.10, run=2),
        SizeClass(pages=16, share=0.05, run=4),     # attachments, backups
    )),
    hot_overlap=1.0, follower="read", follow_share=0.30, follow_window=1024,
)

PHOTOSHOP = Profile(
    name="photoshop", what="image editing: long sequential image reads, large writes of modified parts",
    paper_requests=23_498, paper_write_fraction=0.29, paper_mean_write_sectors=414.21,
    rate_per_s=20.0,
    write=OpModel(hot_fraction=0.05, hot_skew=0.0, hot_share=0.50, sizes=(
        SizeClass(pages=1, share=0.30, run=1),      # metadata, settings
        SizeClass(pages=4, share=0.10, run=1),
        SizeClass(pages=16, share=0.16, run=8),     # saved image data, 64 KiB ...
        SizeClass(pages=64, share=0.20, run=8),
        SizeClass(pages=128, share=0.20, run=8),
        SizeClass(pages=256, share=0.04, run=8),    # ... to 1 MiB
    )),
    read=OpModel(hot_fraction=0.10, hot_skew=0.0, hot_share=0.70, sizes=(
        SizeClass(pages=1, share=0.15, run=1),      # metadata
        SizeClass(pages=4, share=0.10, run=1),
        SizeClass(pages=16, share=0.45, run=32),    # image files: 2-4 MiB sequential runs
        SizeClass(pages=32, share=0.30, run=32),
    )),
    hot_overlap=0.0, follower="write", follow_share=0.60, follow_window=4,
)

RANDOM = Profile(
    name="random", what="disk benchmark: small random writes over a test file, repeated",
    paper_requests=33_740, paper_write_fraction=0.99, paper_mean_write_sectors=8.28,
    rate_per_s=300.0,
    write=OpModel(hot_fraction=0.10, hot_skew=0.0, hot_share=0.98, sizes=(
        SizeClass(pages=1, share=0.975, run=1),     # the benchmark's 4 KiB writes
        SizeClass(pages=2, share=0.020, run=1),     # file-system metadata
        SizeClass(pages=4, share=0.005, run=1),
    )),
    read=OpModel(hot_fraction=0.10, hot_skew=0.0, hot_share=0.50, sizes=(
        SizeClass(pages=1, share=0.80, run=1),
        SizeClass(pages=8, share=0.20, run=1),
    )),
    hot_overlap=1.0, follower="read", follow_share=0.0, follow_window=0,
)

GENERAL = Profile(
    name="general", what="8 hours of PC use: mostly reads, partly sequential, small hot writes",
    paper_requests=300_000, paper_write_fraction=0.23, paper_mean_write_sectors=27.67,
    rate_per_s=300_000 / (8 * 3600),
    write=OpModel(hot_fraction=0.05, hot_skew=0.5, hot_share=0.70, sizes=(
        SizeClass(pages=1, share=0.605, run=2),     # metadata, registry, logs
        SizeClass(pages=2, share=0.150, run=1),
        SizeClass(pages=4, share=0.100, run=2),
        SizeClass(pages=8, share=0.080, run=4),     # saved and downloaded files
        SizeClass(pages=16, share=0.035, run=8),
        SizeClass(pages=32, share=0.030, run=8),
    )),
    read=OpModel(hot_fraction=0.10, hot_skew=0.5, hot_share=0.50, sizes=(
        SizeClass(pages=1, share=0.35, run=1),
        SizeClass(pages=2, share=0.15, run=1),
        SizeClass(pages=4, share=0.15, run=2),
        SizeClass(pages=8, share=0.15, run=4),      # application and file loads
        SizeClass(pages=16, share=0.15, run=8),
        SizeClass(pages=32, share=0.05, run=16),
    )),
    hot_overlap=0.2, follower="read", follow_share=0.10, follow_window=256,
)

PROFILES = {p.name: p for p in (EXCHANGE, PHOTOSHOP, RANDOM, GENERAL)}

RECORD = np.dtype([("time_ns", np.int64), ("device", np.int64), ("lba", np.int64),
                   ("size", np.int64), ("type", np.int64)])   # one trace line; lba, size in sectors
WRITE, READ = 0, 1


class BadArgument(ValueError):
    """An argument of generate() that cannot make a trace; name is the parameter's name."""

    def __init__(self, name, reason):
        super().__init__(f"{name}: {reason}")
        self.name, self.reason = name, reason


class TraceFileError(ValueError):
    """A trace file stats() cannot read: PATH[:LINE]: what is wrong."""


def largest_request_sectors(profile):
    return max(c.pages for c in profile.write.sizes + profile.read.sizes) * PAGE_SECTORS


def request_count(profile, scale):
    return round(profile.paper_requests * scale)


def _check(profile, span_sectors, scale, seed):
    if not isinstance(profile, str) or profile not in PROFILES:
        raise BadArgument("profile", f"unknown profile '{profile}' (known: {', '.join(PROFILES)})")
    p = PROFILES[profile]
    if isinstance(span_sectors, bool) or not isinstance(span_sectors, (int, np.integer)):
        raise BadArgument("span_sectors", f"{span_sectors!r} is not an integer")
    if not 0 < span_sectors <= MAX_SPAN_SECTORS or span_sectors % PAGE_SECTORS:
        raise BadArgument("span_sectors", f"{span_sectors} is not a multiple of {PAGE_SECTORS} (requests are "
                          f"4 KiB aligned) from {PAGE_SECTORS} to {MAX_SPAN_SECTORS}")
    if span_sectors < largest_request_sectors(p):
        raise BadArgument("span_sectors", f"{span_sectors} sectors cannot hold {profile}'s largest request "
                          f"({largest_request_sectors(p)} sectors)")
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.number)) or not math.isfinite(scale) \
            or scale <= 0:
        raise BadArgument("scale", f"{scale!r} is not a finite number > 0")
    if not 1 <= request_count(p, scale) <= MAX_REQUESTS:
        raise BadArgument("scale", f"{scale!r} gives {request_count(p, scale):,} requests ({profile} has "
                          f"{p.paper_requests:,} at scale 1; 1 ... {MAX_REQUESTS:,} allowed)")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise BadArgument("seed", f"{seed!r} is not an integer >= 0")
    return p


def _allocate(total, shares):
    """Integer counts proportional to shares summing to total (largest remainder, ties to the
    first class)."""
    exact = total * np.asarray(shares, dtype=float)
    counts = np.floor(exact).astype(np.int64)
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:total - counts.sum()]] += 1
    return counts


def _run_lengths(rng, count, mean, cap):
    """Geometric run lengths of the given mean, each at most cap, summing to count."""
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    lengths = np.minimum(rng.geometric(1.0 / mean, size=count), cap)
    ends = np.cumsum(lengths)
    last = int(np.searchsorted(ends, count))
    lengths = lengths[:last + 1]
    lengths[-1] -= ends[last] - count
    return lengths


def _runs(rng, op, model, requests, span_pages):
    """(op, pages, length) of each run of one operation, class by class."""
    pages, lengths = [], []
    for cls, count in zip(model.sizes, _allocate(requests, [c.share for c in model.sizes])):
        run = _run_lengths(rng, int(count), cls.run, span_pages // cls.pages)
        pages.append(np.full(run.size, cls.pages, dtype=np.int64))
        lengths.append(run)
    pages, lengths = np.concatenate(pages), np.concatenate(lengths)
    return np.full(pages.size, op, dtype=np.int64), pages, lengths


def _hot_count(model, extents):
    return min(extents, max(1, round(model.hot_fraction * extents)))


def _place(rng, model, hot, layout, runs):
    """Extents of runs placed by one operation's model: hot (Zipf over hot, hottest first) with
    probability hot_share, else uniform over the extents outside hot (all, if none is)."""
    cold = np.setdiff1d(layout, hot, assume_unique=True)
    if cold.size == 0:
        cold = hot
    zipf = np.arange(1, hot.size + 1, dtype=float) ** -model.hot_skew
    return np.where(rng.random(runs) < model.hot_share,
                    hot[rng.choice(hot.size, size=runs, p=zipf / zipf.sum())],
                    cold[rng.integers(0, cold.size, size=runs)])


def generate(profile, span_sectors=DEFAULT_SPAN_SECTORS, scale=DEFAULT_SCALE, seed=DEFAULT_SEED):
    """The requests of a profile (a name in PROFILES) as a RECORD array in trace order (lba and
    size in 512-byte sectors, multiples of 8); raises BadArgument naming the parameter that
    cannot make a trace."""
    p = _check(profile, span_sectors, scale, seed)
    rng = np.random.default_rng([int(seed), zlib.crc32(p.name.encode())])
    span_pages = int(span_sectors) // PAGE_SECTORS

    # Hot sets, hottest first: the write set is the start of a random layout of the extents; the
    # read set is the write set's hottest extents for its hot_overlap share, then the next ones.
    extents = -(-span_pages // EXTENT_PAGES)
    layout = rng.permutation(extents)
    w_hot = layout[:_hot_count(p.write, extents)]
    r_count = _hot_count(p.read, extents)
    shared = min(round(p.hot_overlap * r_count), w_hot.size)
    r_hot = np.concatenate([layout[:shared], layout[w_hot.size:][:r_count - shared]])
    if r_hot.size == 0:
        r_hot = layout[:r_count]

    # Runs of both operations, shuffled into one order.
    n = request_count(p, scale)
    writes = round(n * p.paper_write_fraction)
    w_op, w_pages, w_len = _runs(rng, WRITE, p.write, writes, span_pages)
    r_op, r_pages, r_len = _runs(rng, READ, p.read, n - writes, span_pages)
    order = rng.permutation(w_op.size + r_op.size)
    op = np.concatenate([w_op, r_op])[order]
    pages = np.concatenate([w_pages, r_pages])[order]
    length = np.concatenate([w_len, r_len])[order]
    run_pages = pages * length
    runs = op.size

    # Independent placement: a hot or cold extent of the run's operation, uniform offset inside it.
    extent = np.empty(runs, dtype=np.int64)
    for code, model, hot in ((WRITE, p.write, w_hot), (READ, p.read, r_hot)):
        mine = np.flatnonzero(op == code)
        extent[mine] = _place(rng, model, hot, layout, mine.size)
    extent_len = np.minimum(EXTENT_PAGES, span_pages - extent * EXTENT_PAGES)
    start = extent * EXTENT_PAGES + (rng.random(runs) * extent_len).astype(np.int64)
    start = np.minimum(start, span_pages - run_pages)

    # Overlap: follower runs start inside one of the leader's latest runs.
    leader = op != (WRITE if p.follower == "write" else READ)
    leaders_before = np.cumsum(leader) - leader
    follows = ~leader & (leaders_before > 0) & (rng.random(runs) < p.follow_share)
    back = (rng.random(runs) * np.minimum(p.follow_window, leaders_before)).astype(np.int64)
    target = np.flatnonzero(leader)[np.maximum(leaders_before - 1 - back, 0)[follows]]
    inside = (rng.random(target.size) * run_pages[target]).astype(np.int64)
    start[follows] = np.minimum(start[target] + inside, span_pages - run_pages[follows])

    # Requests: each run's requests back to back in address.
    run_of = np.repeat(np.arange(runs), length)
    first = np.cumsum(length) - length
    page = start[run_of] + (np.arange(n) - first[run_of]) * pages[run_of]
    gaps = np.maximum(1, np.rint(rng.exponential(1e9 / p.rate_per_s, size=n))).astype(np.int64)

    records = np.zeros(n, dtype=RECORD)
    records["time_ns"] = np.cumsum(gaps) - gaps[0]
    records["lba"] = page * PAGE_SECTORS
    records["size"] = pages[run_of] * PAGE_SECTORS
    records["type"] = op[run_of]
    return records


def write_trace(path, records, comment=None):
    """Writes records as DiskSim/MQSim ASCII lines, after `# comment` if given."""
    lines = [f"# {comment}"] if comment else []
    lines += [f"{t} {d} {lba} {size} {op}" for t, d, lba, size, op in records.tolist()]
    Path(path).write_text("\n".join(lines) + "\n")


def write_profile(path, profile, span_sectors=DEFAULT_SPAN_SECTORS, scale=DEFAULT_SCALE, seed=DEFAULT_SEED):
    """generate() into a trace file whose first line records the arguments; returns the records."""
    records = generate(profile, span_sectors, scale, seed)
    write_trace(path, records, f"lapt_profiles.py {profile} span_sectors={span_sectors} scale={scale:g} "
                f"seed={seed}: time_ns device lba_sector size_sectors type(0=write,1=read)")
    return records


def summarize(records):
    """requests, write_fraction, mean_write_sectors, mean_read_sectors (nan without such
    requests) and distinct_pages (4 KiB pages touched by any request) of a RECORD array."""
    is_write = records["type"] == WRITE
    sizes = records["size"]
    first = records["lba"] // PAGE_SECTORS
    end = (records["lba"] + sizes + PAGE_SECTORS - 1) // PAGE_SECTORS
    distinct = 0
    if records.size:
        order = np.argsort(first, kind="stable")
        first, end = first[order], end[order]
        reach = np.maximum.accumulate(end)
        starts = np.flatnonzero(np.r_[True, first[1:] >= reach[:-1]])
        distinct = int((np.maximum.reduceat(end, starts) - first[starts]).sum())
    return {
        "requests": int(records.size),
        "write_fraction": float(is_write.mean()) if records.size else math.nan,
        "mean_write_sectors": float(sizes[is_write].mean()) if is_write.any() else math.nan,
        "mean_read_sectors": float(sizes[~is_write].mean()) if (~is_write).any() else math.nan,
        "distinct_pages": distinct,
    }


def read_trace(path):
    """A DiskSim/MQSim ASCII file as a RECORD array (comments and blank lines skipped); raises
    TraceFileError naming the file and line of what cannot be read."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise TraceFileError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") from e
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        try:
            if len(fields) != 5:
                raise ValueError(f"{len(fields)} fields, expected 5 (time_ns device lba_sector size_sectors type)")
            time_ns = float(fields[0])
            device, lba, size, op = (int(f) for f in fields[1:])
            if not 0 <= time_ns < 2 ** 63 or not 0 <= min(device, lba) <= max(device, lba + size) < 2 ** 63:
                raise ValueError("time, device or lba outside 0 ... 2^63")
            if size <= 0 or op not in (WRITE, READ):
                raise ValueError("size is not > 0 or type is not 0 (write) or 1 (read)")
        except ValueError as e:
            raise TraceFileError(f"{path}:{number}: {e} ({line.strip()})") from None
        rows.append((round(time_ns), device, lba, size, op))
    return np.array(rows, dtype=RECORD)


def stats(path):
    """summarize() of a trace file."""
    return summarize(read_trace(path))


def format_stats(s):
    return "\n".join([
        f"requests              {s['requests']}",
        f"write fraction        {s['write_fraction']:.4f}",
        f"mean write sectors    {s['mean_write_sectors']:.2f}",
        f"mean read sectors     {s['mean_read_sectors']:.2f}",
        f"distinct 4 KiB pages  {s['distinct_pages']}",
    ])


def format_list():
    rows = [f"{'profile':<10} {'requests':>8} {'writes':>6} {'mean write':>10}  what"]
    for p in PROFILES.values():
        rows.append(f"{p.name:<10} {p.paper_requests:>8} {p.paper_write_fraction:>6.0%} "
                    f"{p.paper_mean_write_sectors:>10.2f}  {p.what}")
    return "\n".join(rows)


OPTION = {"profile": "PROFILE", "span_sectors": "--span-sectors", "scale": "--scale", "seed": "--seed"}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="lapt_profiles.py", description=__doc__.split("\n\n")[0],
                                 epilog="docs/traces.md, section 'Synthetic profiles of the LAPT paper's traces'")
    ap.add_argument("profile", nargs="?", choices=list(PROFILES), metavar="PROFILE",
                    help=f"one of {', '.join(PROFILES)}")
    ap.add_argument("--out", metavar="FILE", help="trace file to write")
    ap.add_argument("--span-sectors", type=int, default=DEFAULT_SPAN_SECTORS, metavar="N",
                    help=f"logical space in 512-byte sectors, a multiple of 8 (default {DEFAULT_SPAN_SECTORS} = 1 GiB)")
    ap.add_argument("--scale", type=float, default=DEFAULT_SCALE, metavar="F",
                    help="fraction of the paper's request count (default 1)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S", help=f"default {DEFAULT_SEED}")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--stats", metavar="FILE", help="print a trace file's statistics")
    mode.add_argument("--list", action="store_true", help="list the profiles with the paper's figures")
    args = ap.parse_args(argv)

    if args.stats or args.list:
        given = [name for name, value in (("PROFILE", args.profile), ("--out", args.out)) if value is not None]
        if given:
            ap.error(f"argument {'--stats' if args.stats else '--list'}: not allowed with {given[0]}")
        if args.list:
            print(format_list())
            return 0
        try:
            print(format_stats(stats(args.stats)))
        except TraceFileError as e:
            ap.error(f"argument --stats: {e}")
        return 0
    if args.profile is None:
        ap.error("argument PROFILE: required (or --stats FILE, or --list)")
    if args.out is None:
        ap.error("argument --out: required with PROFILE")
    try:
        write_profile(args.out, args.profile, args.span_sectors, args.scale, args.seed)
    except BadArgument as e:
        ap.error(f"argument {OPTION[e.name]}: {e.reason}")
    except OSError as e:
        ap.error(f"argument --out: cannot write {args.out} ({e.strerror})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
