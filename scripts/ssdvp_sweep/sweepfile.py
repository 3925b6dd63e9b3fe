"""A sweep's definition, from the command line and/or a TOML sweep file, expanded into its runs:
the cartesian product of the grid keys, times the rows of the zipped keys (varied together),
times the workloads, times the repeats (each with its own seed). Malformed input raises
SweepInputError naming the option or file and the key.

Sweep file (every table may be nested, [grid.ftl] op = [...] is grid key ftl.op):

    platform = "ptsd-board"            # a platforms/ name or a TOML path
    workloads = ["fio:rw=randwrite,bs=4k,iodepth=32,io=100000"]   # or workload = "..."
    repeats = 3                        # seeds 1..3 of seed_key (or seeds = [7, 8, 9])
    seed_key = "sim.seed"
    [set]                              # every run
    "ftl.cmt_ratio" = 0.2
    [grid]                             # cartesian product
    "ftl.op" = [0.07, 0.2]
    [zip]                              # varied together, equal lengths
    "nand.channels" = [4, 8]
    "nand.ways" = [8, 4]

Leaves out checking keys and values against ssdvp (runspec.plan does, for every run).
"""
import itertools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import SweepInputError
from .runspec import RunSpec, flatten_toml

FILE_KEYS = {"platform", "workload", "workloads", "repeats", "seeds", "seed_key", "set", "grid", "zip"}


@dataclass
class SweepDefinition:
    platform: str = ""
    workloads: list = field(default_factory=list)
    sets: list = field(default_factory=list)     # [(key, value, where)]
    grid: list = field(default_factory=list)     # [(key, [values], where)]
    zipped: list = field(default_factory=list)   # [(key, [values], where)]
    seeds: list = field(default_factory=list)    # one run per seed; empty = no seed setting
    seed_key: str = "sim.seed"

    def runs(self):
        for key, values, where in self.grid + self.zipped:
            if not values:
                raise SweepInputError(f"{where}: {key}: no values")
        keys = [k for k, _, _ in self.grid + self.zipped]
        dup = {k for k in keys if keys.count(k) > 1}
        if dup:
            raise SweepInputError(f"key {', '.join(sorted(dup))} is swept twice (grid/zip)")
        lengths = {len(v) for _, v, _ in self.zipped}
        if len(lengths) > 1:
            raise SweepInputError("zipped keys need the same number of values: " +
                                  ", ".join(f"{k} has {len(v)}" for k, v, _ in self.zipped))
        zip_rows = list(zip(*[[(k, v, w) for v in vs] for k, vs, w in self.zipped])) or [()]
        grid_rows = itertools.product(*[[(k, v, w) for v in vs] for k, vs, w in self.grid])
        swept = tuple(keys) + ((self.seed_key,) if len(self.seeds) > 1 else ())
        runs = []
        for grid_row in grid_rows:
            for zip_row in zip_rows:
                for workload in self.workloads or [""]:
                    for r, seed in enumerate(self.seeds or [None]):
                        settings = list(self.sets) + list(grid_row) + list(zip_row)
                        if seed is not None:
                            settings.append((self.seed_key, seed, "seeds"))
                        runs.append(RunSpec(self.platform, workload, settings, swept, r))
        return runs


def split_values(text):
    """v1,v2,... with commas inside [...] kept (list values: [100],[100,200])."""
    values, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            values.append(current)
            current = ""
        else:
            current += ch
    values.append(current)
    return values


def parse_assignment(item, option, many):
    key, sep, text = item.partition("=")
    key = key.strip()
    if not sep or not key or not text.strip():
        raise SweepInputError(f"{option} {item}: expected key={'v1,v2,...' if many else 'value'}")
    if not many:
        return key, text, f"{option} {key}"
    values = split_values(text)
    if any(not v.strip() for v in values):
        raise SweepInputError(f"{option} {item}: an empty value in the list")
    return key, values, f"{option} {key}"


def read_sweep_file(path, definition):
    try:
        table = tomllib.loads(Path(path).read_text())
    except OSError as e:
        raise SweepInputError(f"{path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise SweepInputError(f"{path}: {e}") from None
    unknown = set(table) - FILE_KEYS
    if unknown:
        raise SweepInputError(f"{path}: unknown sweep file key(s) {', '.join(sorted(unknown))} "
                              f"(known: {', '.join(sorted(FILE_KEYS))})")

    def typed(name, kind):
        if name in table and not isinstance(table[name], kind):
            raise SweepInputError(f"{path}: {name} must be a {kind.__name__ if isinstance(kind, type) else 'list'}")
        return table.get(name)

    definition.platform = typed("platform", str) or definition.platform
    if typed("workload", str):
        definition.workloads.append(table["workload"])
    for w in typed("workloads", list) or []:
        if not isinstance(w, str) or not w:
            raise SweepInputError(f"{path}: workloads must be a list of non-empty strings")
        definition.workloads.append(w)
    definition.seed_key = typed("seed_key", str) or definition.seed_key
    if typed("repeats", int) is not None:
        if table["repeats"] < 1:
            raise SweepInputError(f"{path}: repeats must be at least 1")
        definition.seeds = list(range(1, table["repeats"] + 1))
    if typed("seeds", list) is not None:
        definition.seeds = list(table["seeds"])
    for key, value in flatten_toml(typed("set", dict) or {}):
        definition.sets.append((key, value, f"{path} [set]"))
    for section, target in (("grid", definition.grid), ("zip", definition.zipped)):
        for key, values in flatten_toml(typed(section, dict) or {}):
            if not isinstance(values, list):
                raise SweepInputError(f"{path} [{section}]: {key} must be a list of values")
            target.append((key, values, f"{path} [{section}]"))


def definition_from_args(args):
    """The sweep of sweep.py's options: --file first, then --platform/--workload/--set/--grid/
    --zip/--repeats on top."""
    d = SweepDefinition()
    if args.file:
        read_sweep_file(args.file, d)
    if args.platform:
        d.platform = args.platform
    d.workloads += args.workload or []
    if args.repeats is not None:
        if args.repeats < 1:
            raise SweepInputError(f"--repeats {args.repeats}: must be at least 1")
        d.seeds = list(range(1, args.repeats + 1))
    if args.seed_key:
        d.seed_key = args.seed_key
    d.sets += [parse_assignment(s, "--set", False) for s in args.set or []]
    d.grid += [parse_assignment(g, "--grid", True) for g in args.grid or []]
    d.zipped += [parse_assignment(z, "--zip", True) for z in args.zip or []]
    return d
