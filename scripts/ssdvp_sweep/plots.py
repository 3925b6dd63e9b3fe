"""A sweep's figures against what it varied: one PNG per figure in OUT/plots/, the swept key on
the x axis and the figure on the y axis, and OUT/plots/index.html showing them all.

Drawn from the store's rows (store.py) and the sweep's axes (varied.py):
  * x: the first numeric axis (a key with numeric values, e.g. ftl.op), else the first axis;
    a categorical x (ftl.gc_policy = greedy, fifo; zipped keys; workloads) has one slot per
    value, in the sweep's order;
  * with two or more axes, one line per combination of the other axes' values (the legend);
  * runs of one point (repeats with other seeds) as their mean, with bars from min to max;
  * only runs with status "ok": the others are left out and counted, by status, in each
    figure's caption (under its title) and on the index page, which names them;
  * the figures (FIGURES below): write amplification, IOPS and MB/s in total and per
    operation, latency mean, p50, p99 and p99.9 per operation — each drawn when the store has
    it for some run ok (a figure of an operation only from runs that did that operation, WAF
    only from runs that wrote) — then NAND-level WAF, GC runs and copies, erases, die and
    channel utilisation, mapping-cache and write-buffer read hit ratios, drawn only when they
    differ between runs.

draw() returns what it drew (each figure's points per line, read back from the drawn lines)
so a caller or a test can compare them with the store.

Leaves out latency distributions (they are not in the store: latency_<op>.csv in each run's
folder; `ssdvp report RUN_DIR` draws them), time series, figures of the machine (wall time,
simulation speed), and any model curve (scripts/plot_waf.py draws WAF against the models).
"""
import html
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import pandas as pd  # noqa: E402

from .errors import SweepInputError  # noqa: E402
from .varied import axes_from_definition, axes_from_store  # noqa: E402

OPS = ("read", "write", "trim")
LATENCIES = (("mean", "mean"), ("p50", "p50"), ("p99", "p99"), ("p99.9", "p99.9"))
CATEGORY_SPREAD = 0.25      # a categorical slot's width shared by the lines' markers
DPI = 110


@dataclass(frozen=True)
class Figure:
    name: str            # the PNG's file name, without .png
    title: str
    unit: str            # the y axis label
    column: str          # the store column, or a name derive() computes
    needs: str = ""      # a count column: a run where it is 0 or missing has no such figure
    main: bool = True    # drawn when present; else only when it differs between runs
    derive: object = None

    def values(self, frame):
        if self.derive is not None:
            values = self.derive(frame)
        elif self.column in frame.columns:
            values = pd.to_numeric(frame[self.column], errors="coerce")
        else:
            return pd.Series(float("nan"), index=frame.index)
        if self.needs:
            count = pd.to_numeric(frame[self.needs], errors="coerce") if self.needs in frame.columns else None
            values = values.where(count > 0) if count is not None else values * float("nan")
        return values.astype(float)


def _ratio(hits, misses):
    def derive(frame):
        if hits not in frame.columns or misses not in frame.columns:
            return pd.Series(float("nan"), index=frame.index)
        h, m = pd.to_numeric(frame[hits], errors="coerce"), pd.to_numeric(frame[misses], errors="coerce")
        return (h / (h + m)).where(h + m > 0)
    return derive


def _figures():
    out = [Figure("waf", "Write amplification (flash programmed / host written sectors)", "WAF", "waf",
                  needs="ftl.host_write_sectors"),
           Figure("total_iops", "IOPS, all operations", "IOPS", "total.iops", needs="total.requests"),
           Figure("total_mbps", "Bandwidth, all operations", "MB/s", "total.mbps", needs="total.requests")]
    for op in OPS:
        need = f"ops.{op}.requests"
        out.append(Figure(f"{op}_iops", f"{op.capitalize()} IOPS", "IOPS", f"ops.{op}.iops", need))
        if op != "trim":
            out.append(Figure(f"{op}_mbps", f"{op.capitalize()} bandwidth", "MB/s", f"ops.{op}.mbps", need))
        for key, shown in LATENCIES:
            out.append(Figure(f"{op}_latency_{key}", f"{op.capitalize()} latency, {shown}", "latency (us)",
                              f"ops.{op}.latency_us.{key}", need))
    out += [Figure("nand_waf", "NAND write amplification (die programs / host written sectors)", "WAF",
                   "nand.waf", needs="ftl.host_write_sectors", main=False),
            Figure("gc_runs", "GC runs", "runs", "ftl.gc_runs", main=False),
            Figure("gc_copied_sectors", "Sectors copied by GC", "sectors", "ftl.gc_copied_sectors", main=False),
            Figure("erases", "Block erases", "erases", "ftl.erases", main=False),
            Figure("die_utilisation", "Die utilisation, mean of the dies", "busy fraction",
                   "utilisation.dies.mean", main=False),
            Figure("channel_utilisation", "Channel utilisation, mean of the channels", "busy fraction",
                   "utilisation.channels.mean", main=False),
            Figure("mapping_read_hit_ratio", "Mapping cache hit ratio of reads", "hits / lookups",
                   "mapping.read_lookups", main=False,
                   derive=_ratio("mapping.read_lookups.hits", "mapping.read_lookups.misses")),
            Figure("write_buffer_read_hit_ratio", "Write buffer hit ratio of reads", "ratio",
                   "write_buffer.read_hit_ratio", main=False)]
    return out


FIGURES = _figures()


@dataclass
class Point:
    x: object            # the x value: a number, or the category's text
    mean: float
    low: float
    high: float
    runs: int


@dataclass
class Drawn:
    figure: Figure
    path: Path
    title: str
    caption: str
    x_axis: str
    legend: str                                   # the other axes' names, "" with one axis
    series: dict = field(default_factory=dict)    # line label ("" with one axis) -> [Point]
    drawn: dict = field(default_factory=dict)     # line label -> (x, y) read back from the plot


@dataclass
class PlotSet:
    folder: Path
    drawn: list = field(default_factory=list)
    nothing: str = ""            # why nothing was drawn, or ""
    left_out: dict = field(default_factory=dict)  # status -> runs
    index: Path = None

    def summary(self):
        if self.nothing:
            return f"no plots: {self.nothing}"
        return f"{self.index} ({len(self.drawn)} figure(s))"


def load_store(out):
    """The store of a sweep folder as a DataFrame; SweepInputError naming it when it is not one."""
    path = Path(out) / "results.parquet"
    if not path.is_file():
        raise SweepInputError(f"{path}: no results store (a sweep writes it: scripts/sweep.py --out {out})")
    try:
        frame = pd.read_parquet(path)
    except Exception as e:  # pyarrow's errors are of several kinds; all mean "not a store"
        raise SweepInputError(f"{path}: not readable as a results store ({type(e).__name__}: {e})") from None
    missing = [c for c in ("hash", "status", "label") if c not in frame.columns]
    if missing:
        raise SweepInputError(f"{path}: not a sweep's results store (no column {', '.join(missing)})")
    return frame


def plot_sweep(frame, folder, definition=None):
    """Draws the figures of frame (store rows) into folder; the axes from definition (a
    SweepDefinition, values in the rows' order) or, without one, from the rows (sorted)."""
    axes = axes_from_definition(frame, definition) if definition is not None else axes_from_store(frame)
    return draw(frame, axes, folder)


def _clear(folder):
    """Removes the figures an earlier drawing left (this module's files only)."""
    names = {f"{f.name}.png" for f in FIGURES} | {"index.html"}
    if folder.is_dir():
        for p in folder.iterdir():
            if p.name in names:
                p.unlink()


def draw(frame, axes, folder):
    folder = Path(folder)
    _clear(folder)
    ok = frame[frame["status"] == "ok"]
    left_out = dict(Counter(frame.loc[frame["status"] != "ok", "status"].fillna("(no status)")))
    result = PlotSet(folder, left_out=left_out)
    if not axes:
        result.nothing = (f"the sweep varies no key ({len(frame)} run(s) of one point): "
                          "nothing to draw against a swept key")
        return result
    if ok.empty:
        result.nothing = f"no run is ok ({_left_out_text(left_out, len(frame))}): nothing to draw"
        return result
    x_axis = next((a for a in axes if a.numeric), axes[0])
    others = [a for a in axes if a is not x_axis]
    xs = x_axis.of_rows(ok)
    lines = _line_labels(ok, others)
    folder.mkdir(parents=True, exist_ok=True)
    for figure in FIGURES:
        values = figure.values(ok)
        have = values.notna()
        if not have.any() or (not figure.main and values[have].nunique() < 2):
            continue
        series = _series(xs[have], lines[have], values[have], x_axis, others)
        drawn = _draw_one(figure, series, x_axis, others, folder, _caption(values, len(frame), left_out))
        result.drawn.append(drawn)
    if not result.drawn:
        result.nothing = "the runs that are ok have none of the figures drawn here"
        return result
    result.index = _write_index(result, frame, axes, x_axis)
    return result


LINE_SEPARATOR = "; "


def _value_text(axis, v):
    return _fmt_x(v) if axis.numeric else v


def _line_labels(rows, others):
    """Each row's line: "key=value" of the other axes, joined by LINE_SEPARATOR ("" with none)."""
    labels = pd.Series("", index=rows.index)
    for i, a in enumerate(others):
        part = a.of_rows(rows).map(lambda v, a=a: f"{a.name}={_value_text(a, v)}")
        labels = part if i == 0 else labels + LINE_SEPARATOR + part
    return labels


def _line_order(others):
    """[(label, legend text)] of the lines in the axes' order (the product of the other axes'
    values); the legend text is the values alone (the legend's title names the keys)."""
    order = [((), ())]
    for a in others:
        order = [(names + (f"{a.name}={_value_text(a, v)}",), texts + (_value_text(a, v),))
                 for names, texts in order for v in a.values]
    return [(LINE_SEPARATOR.join(names), ", ".join(texts)) for names, texts in order]


def _series(xs, lines, values, x_axis, others):
    frame = pd.DataFrame({"x": xs, "line": lines, "y": values})
    series = {}
    slots = {v: i for i, v in enumerate(x_axis.values)}
    for label, _ in _line_order(others):
        rows = frame[frame["line"] == label]
        if rows.empty:
            continue
        points = []
        for x, g in rows.groupby("x", sort=False):
            points.append(Point(x, float(g["y"].mean()), float(g["y"].min()), float(g["y"].max()), len(g)))
        points.sort(key=lambda p: p.x if x_axis.numeric else slots.get(p.x, len(slots)))
        series[label] = points
    return series


def _left_out_text(left_out, total):
    n = sum(left_out.values())
    by = ", ".join(f"{status} {count}" for status, count in sorted(left_out.items()))
    return f"{n} of {total} run(s) left out, status not ok: {by}"


def _caption(values, total, left_out):
    parts = [f"{int(values.notna().sum())} run(s) ok"]
    if values.isna().any():
        parts.append(f"{int(values.isna().sum())} ok run(s) without this figure")
    if left_out:
        parts.append(_left_out_text(left_out, total))
    return "; ".join(parts)


def _fmt_x(v):
    return format(float(v), ".6g")


def _draw_one(figure, series, x_axis, others, folder, caption):
    fig, ax = plt.subplots(figsize=(7.0, 4.6))
    repeats = max(p.runs for points in series.values() for p in points)
    n_lines = len(series)
    legends = dict(_line_order(others))
    drawn = {}
    for i, (label, points) in enumerate(series.items()):
        if x_axis.numeric:
            x = [p.x for p in points]
        else:
            shift = (i - (n_lines - 1) / 2) * (CATEGORY_SPREAD / max(n_lines - 1, 1)) if n_lines > 1 else 0.0
            x = [x_axis.values.index(p.x) + shift for p in points]
        y = [p.mean for p in points]
        err = [[max(0.0, p.mean - p.low) for p in points], [max(0.0, p.high - p.mean) for p in points]]  # rounding
        container = ax.errorbar(x, y, yerr=err if repeats > 1 else None, fmt="o-" if x_axis.numeric else "o",
                                capsize=3, label=legends.get(label) or None)
        line = container.lines[0]
        drawn[label] = (list(line.get_xdata()), list(line.get_ydata()))
    _x_axis(ax, x_axis)
    _y_scale(ax, series)
    ax.set_ylabel(figure.unit)
    ax.grid(True, alpha=0.3)
    if others:
        ax.legend(title=", ".join(a.name for a in others), fontsize="small", title_fontsize="small")
    title = f"{figure.title} vs {x_axis.name}"
    note = f"\nmean of up to {repeats} runs per point (other seeds), bars min to max" if repeats > 1 else ""
    fig.suptitle(title, fontsize="medium")
    ax.set_title(caption + note, fontsize="x-small")
    fig.tight_layout()
    path = folder / f"{figure.name}.png"
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return Drawn(figure, path, title, caption, x_axis.name, ", ".join(a.name for a in others), series, drawn)


def _x_axis(ax, x_axis):
    ax.set_xlabel(x_axis.name)
    if not x_axis.numeric:
        ax.set_xticks(range(len(x_axis.values)))
        ax.set_xticklabels([_short(v) for v in x_axis.values], rotation=20 if len(x_axis.values) > 4 else 0,
                           fontsize="small")
        ax.set_xlim(-0.5, len(x_axis.values) - 0.5)
        return
    lo, hi = min(x_axis.values), max(x_axis.values)
    if lo > 0 and hi / lo >= 30:
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlim(lo / (hi / lo) ** 0.05, hi * (hi / lo) ** 0.05)
    else:
        ax.set_xlim(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))   # every value of the axis, drawn or not
    if len(x_axis.values) <= 10:
        ax.set_xticks(x_axis.values)
        ax.set_xticklabels([_fmt_x(v) for v in x_axis.values])


def _y_scale(ax, series):
    ys = [v for points in series.values() for p in points for v in (p.low, p.high)]
    lo, hi = min(ys), max(ys)
    if lo > 0 and hi / lo >= 100:
        ax.set_yscale("log")
    elif lo >= 0:
        ax.set_ylim(bottom=0, top=hi * 1.08 if hi > 0 else 1)


def _short(text, width=28):
    return text if len(text) <= width else text[:width - 3] + "..."


def _write_index(result, frame, axes, x_axis):
    out = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'><title>sweep plots</title>",
           "<style>body{font-family:sans-serif;max-width:1000px;margin:1em auto}"
           "figure{margin:1.5em 0}figcaption{font-size:0.9em;color:#444}</style></head><body>",
           "<h1>Sweep plots</h1>",
           f"<p>{len(frame)} run(s); axes: " + "; ".join(
               html.escape(f"{a.name} ({', '.join(_fmt_x(v) if a.numeric else v for v in a.values)})") for a in axes)
           + f". x axis: {html.escape(x_axis.name)}. The store: ../results.parquet.</p>"]
    if result.left_out:
        out.append(f"<p>{html.escape(_left_out_text(result.left_out, len(frame)))}:</p><ul>")
        for _, row in frame[frame["status"] != "ok"].iterrows():
            error = str(row.get("error") or "").strip().splitlines()[-1:] or [""]
            out.append(f"<li>{html.escape(str(row['label']))}: {html.escape(str(row['status']))} "
                       f"{html.escape(error[0])}</li>")
        out.append("</ul>")
    out.append("<ul>" + "".join(f"<li><a href='#{d.figure.name}'>{html.escape(d.figure.title)}</a></li>"
                                for d in result.drawn) + "</ul>")
    for d in result.drawn:
        out.append(f"<figure id='{d.figure.name}'><img src='{d.path.name}' alt='{html.escape(d.title)}'>"
                   f"<figcaption>{html.escape(d.title)}: {html.escape(d.caption)}</figcaption></figure>")
    out.append("</body></html>")
    path = result.folder / "index.html"
    path.write_text("\n".join(out) + "\n")
    return path
