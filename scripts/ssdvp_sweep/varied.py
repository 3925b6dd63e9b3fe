"""What a sweep varied, as plot axes: each axis is one swept key, or the keys of a --zip varied
together, with its values in order, numeric or categorical. Read from the sweep's definition
(sweepfile.SweepDefinition: its --grid keys one axis each, its --zip keys one axis) or, for a
store alone, from the store's rows: the keys of their "swept" column less the seed key of
--repeats, then any other configuration key whose value differs between rows (a store that
several sweeps wrote into), zipped keys found as keys whose values pair one to one. More than
one workload or platform is an axis too.

A key with one value among the rows is no axis; the seed key of --repeats is no axis (its runs
are repeats of one point). Values are in the order of the rows given (the sweep's order when
the caller passes them so) or, with sort=True, numbers ascending and text alphabetically.

Leaves out drawing (plots.py) and any check of the keys (the sweep checked them when it ran).
"""
from dataclasses import dataclass

import pandas as pd

from .identity import PRESENTATION_KEYS

RUN_COLUMNS = ("workload", "platform")    # store columns of what ran that are not config keys


@dataclass
class Axis:
    keys: tuple          # config keys ("ftl.op",), zipped keys, or ("workload",) / ("platform",)
    values: list         # the distinct values in order: floats (numeric) or display texts
    numeric: bool

    @property
    def name(self):
        return " / ".join(self.keys)

    def columns(self):
        return [k if k in RUN_COLUMNS else f"config.{k}" for k in self.keys]

    def of_rows(self, frame):
        """This axis's value of each row of frame: a float (numeric) or a display text."""
        if self.numeric:
            return pd.to_numeric(frame[self.columns()[0]], errors="coerce").astype(float)
        parts = [frame[c].map(shown) for c in self.columns()]
        joined = parts[0]
        for p in parts[1:]:
            joined = joined + " / " + p
        return joined


def shown(value):
    """A configuration value as text: true/false, numbers without a trailing .0, lists as ssdvp writes them."""
    if value is None or (isinstance(value, float) and value != value):
        return "(none)"
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return "true" if value else "false"
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        return format(float(value), ".10g")
    if type(value).__name__.startswith("int"):
        return str(int(value))
    return str(value)


def _is_numeric(series):
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _distinct(values, sort):
    out = list(dict.fromkeys(values))
    if sort:
        out.sort(key=lambda v: (isinstance(v, str), v))
    return out


def _axis(frame, keys, sort):
    columns = [k if k in RUN_COLUMNS else f"config.{k}" for k in keys]
    if any(c not in frame.columns for c in columns):
        return None
    numeric = len(keys) == 1 and _is_numeric(frame[columns[0]])
    axis = Axis(tuple(keys), [], numeric)
    values = axis.of_rows(frame)
    values = values[values.notna()] if numeric else values
    axis.values = _distinct(values.tolist(), sort)
    return axis if len(axis.values) > 1 else None


def _run_axes(frame, sort):
    return [a for a in (_axis(frame, (c,), sort) for c in RUN_COLUMNS if c in frame.columns) if a]


def axes_from_definition(frame, definition, sort=False):
    """The axes of a SweepDefinition over its rows: each grid key, the zipped keys together, the
    workloads; those with one value among the rows dropped."""
    groups = [(k,) for k, _, _ in definition.grid]
    if definition.zipped:
        groups.append(tuple(k for k, _, _ in definition.zipped))
    axes = [_axis(frame, keys, sort) for keys in groups]
    return [a for a in axes if a] + _run_axes(frame, sort)


def seed_keys(frame):
    """The seed keys of --repeats: a sweep with repeats lists its seed key last in "swept" and
    numbers its repeats 1, 2, ... (a first run is repeat 0)."""
    seeds = set()
    if "swept" not in frame.columns or "repeat" not in frame.columns:
        return seeds
    for swept, rows in frame.groupby(frame["swept"].fillna("")):
        keys = [k for k in str(swept).split(",") if k]
        if keys and pd.to_numeric(rows["repeat"], errors="coerce").fillna(0).max() > 0:
            seeds.add(keys[-1])
    return seeds


def _varies(frame, column):
    return frame[column].map(shown).nunique() > 1


def axes_from_store(frame, sort=True):
    """The axes of a store's rows, without the sweep's definition (see the module's header)."""
    seeds = seed_keys(frame)
    keys = []
    for swept in frame.get("swept", pd.Series(dtype=object)).fillna(""):
        keys += [k for k in str(swept).split(",") if k and k not in seeds and k not in keys]
    config = sorted(c[len("config."):] for c in frame.columns if c.startswith("config."))
    keys += [k for k in config if k not in keys and k not in seeds and k not in PRESENTATION_KEYS]
    keys = [k for k in keys if f"config.{k}" in frame.columns and _varies(frame, f"config.{k}")]
    groups = []                              # keys whose values pair one to one: one zipped axis
    for k in keys:
        for g in groups:
            if _pairs_one_to_one(frame, f"config.{g[0]}", f"config.{k}"):
                g.append(k)
                break
        else:
            groups.append([k])
    axes = [_axis(frame, tuple(g), sort) for g in groups]
    return [a for a in axes if a] + _run_axes(frame, sort)


def _pairs_one_to_one(frame, a, b):
    pa, pb = frame[a].map(shown), frame[b].map(shown)
    pairs = (pa + "\0" + pb).nunique()
    return pairs == pa.nunique() == pb.nunique()
