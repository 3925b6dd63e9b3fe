#!/usr/bin/python3
"""One self-contained HTML page (plots inline as SVG, a long time series' lines as a bitmap
inside its SVG; CSS and a few lines of table-sorting JavaScript inline; no other file, no
network) about an ssdvp run folder or a sweep's store.

  scripts/ssdvp_report.py RUN_DIR [-o OUT.html]      # default RUN_DIR/report.html

A run folder (run.json, latency_<op>.csv) gets:
  * summary: platform, workload, simulated and wall time, requests, IOPS and MB/s, WAF, the
    integrity verdict, then per operation its IOPS, MB/s and latency percentiles;
  * latency CDFs per operation from latency_<op>.csv (log time axis), with the tail above p90;
  * the time series of plot_series.py (throughput, latency, device state over simulated time),
    or "no time series" when the run had no -s sim.series_interval_ms=N;
  * utilisation: a heat map of the dies (channel x way, die index = channel + way x channels)
    with the channels' bus utilisation under it, and DRAM and PCIe utilisation;
  * the FTL counters that are not zero, the write buffer and wear figures.
A sweep store (scripts/ssdvp_sweep/store.py: results.parquet or results.csv, one row per run)
gets a table of its runs, one row each: the swept keys, status and the headline figures (IOPS,
MB/s and latency per operation, WAF, GC runs, die utilisation, integrity mismatches, simulated
and wall time), then the failed runs with their error.

Exit status 2 with a message naming the file for bad input: no such folder, neither run.json nor
a store, unreadable JSON or CSV, a malformed series.
Leaves out: the configuration echo (run.json "config"; only channels and ways are read from it),
firmware, host and per-thread figures, and plots of a sweep (sweep.py draws them into OUT/plots/;
scripts/plot_waf.py and the experiments' pages draw their own).
"""
import argparse
import csv
import html
import io
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plot_series import BadRunDir, MissingSeries, load_run, run_title, series_figure, series_of  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402  (plot_series has chosen the Agg backend)

plt.rcParams["svg.fonttype"] = "none"  # text stays text in the inline SVG: smaller, selectable

OPS = ("read", "write", "trim", "flush")
LATENCY_KEYS = ("mean", "p50", "p90", "p99", "p99.9", "p99.99", "max")
LATENCY_CSV_COLUMNS = ["low_ns", "high_ns", "count", "cumulative"]
OP_COLOURS = {"read": "tab:blue", "write": "tab:red", "trim": "tab:green", "flush": "tab:purple"}
# A longer series has its lines drawn as a bitmap inside the SVG (axes and text stay vector): a
# vector path costs about 15 bytes per point and line, 10 MB for 100,000 intervals.
RASTERISE_FROM_INTERVALS = 5000

CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; border-bottom: 1px solid #ccc; margin-top: 2em; }
nav a { margin-right: 1em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.6em; text-align: left; }
td.num, td.short { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f3f3f3; }
table.sortable th { cursor: pointer; }
figure { margin: 0.5em 0; }
figure svg { max-width: 100%; height: auto; }
figcaption, .note { color: #555; font-size: 0.9em; }
.bad { color: #b00; font-weight: bold; } .good { color: #070; font-weight: bold; }
"""

# Click a column header of a sortable table to sort by it (numbers by their data-sort value).
SORT_SCRIPT = """
document.querySelectorAll("table.sortable th").forEach(function (th) {
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0], col = th.cellIndex;
    var up = th.getAttribute("data-order") !== "up";
    th.setAttribute("data-order", up ? "up" : "down");
    function key(row) {
      var cell = row.cells[col];
      return cell ? (cell.getAttribute("data-sort") || cell.textContent) : "";
    }
    Array.prototype.slice.call(body.rows).sort(function (a, b) {
      var x = key(a), y = key(b), nx = parseFloat(x), ny = parseFloat(y);
      var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return up ? order : -order;
    }).forEach(function (row) { body.appendChild(row); });
  });
});
"""


class BadInput(Exception):
    """Input the report cannot be made from; the message names the file."""


def esc(value):
    return html.escape(str(value), quote=True)


def fmt(value):
    """A figure as text: counts with thousands separators, other numbers to 4 significant digits."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value.is_integer() and abs(value) < 1e15:
            return f"{int(value):,}"
        return f"{value:,.1f}" if abs(value) >= 1000 else f"{value:.4g}"
    if isinstance(value, list):
        return ", ".join(fmt(v) for v in value)
    return str(value)


def cell(value):
    """A <td>: numbers right-aligned with their value for sorting, short text kept on one line."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not (
            isinstance(value, float) and math.isnan(value)):
        return f'<td class="num" data-sort="{value!r}">{esc(fmt(value))}</td>'
    text = fmt(value)
    return f'<td class="short">{esc(text)}</td>' if len(text) <= 24 else f"<td>{esc(text)}</td>"


def table(header, rows, sortable=False):
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "\n".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in rows)
    cls = ' class="sortable"' if sortable else ""
    return f"<table{cls}><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>"


def key_value_table(pairs):
    return "<table><tbody>\n" + "\n".join(f"<tr><th>{esc(k)}</th>{cell(v)}</tr>" for k, v in pairs) + \
        "\n</tbody></table>"


def flatten(node, prefix=""):
    """[(dotted.key, value)] of a nested dict, lists kept whole."""
    pairs = []
    for key, value in node.items():
        if isinstance(value, dict):
            pairs += flatten(value, f"{prefix}{key}.")
        else:
            pairs.append((f"{prefix}{key}", value))
    return pairs


def svg_of(fig, plot_id, caption):
    """The figure as an inline <svg> in a <figure id=plot_id> (the figure is closed)."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", dpi=150)
    plt.close(fig)
    text = buffer.getvalue()
    svg = text[text.index("<svg"):]
    return f'<figure class="plot" id="{esc(plot_id)}">{svg}<figcaption>{esc(caption)}</figcaption></figure>'


def section(section_id, title, body):
    return f'<section id="{esc(section_id)}"><h2>{esc(title)}</h2>\n{body}\n</section>'


def page(title, nav, sections):
    links = "".join(f'<a href="#{esc(i)}">{esc(t)}</a>' for i, t in nav)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<link rel="icon" href="data:,"><style>{CSS}</style></head>
<body><h1>{esc(title)}</h1><nav>{links}</nav>
{chr(10).join(sections)}
<script>{SORT_SCRIPT}</script>
</body></html>
"""


# ---- a run folder ----

def integrity_verdict(run):
    """(verdict text, is clean): completed, no data mismatch, no unexplained error, no run error."""
    integrity = run.get("integrity", {})
    problems = []
    if not run.get("completed", False):
        problems.append("the run did not complete")
    for key in ("mismatches", "unexplained_errors"):
        if integrity.get(key):
            problems.append(f"{integrity[key]:,} {key.replace('_', ' ')}")
    if run.get("errors"):
        problems.append(f"{len(run['errors'])} run errors")
    checked = f"{integrity.get('reads_checked', 0):,} reads, {integrity.get('sectors_checked', 0):,} sectors checked"
    if problems:
        return f"NOT clean: {'; '.join(problems)} ({checked})", False
    return f"clean: completed, 0 mismatches, 0 unexplained errors ({checked})", True


def summary_section(run):
    verdict, clean = integrity_verdict(run)
    total = run.get("total", {})
    pairs = [("platform", run.get("platform", "")), ("workload", run.get("workload", "")),
             ("simulated time of the measured run (s)", run.get("sim_time_s", "")),
             ("simulated time with preconditioning (s)", run.get("sim_time_total_s", "")),
             ("wall time (s)", run.get("wall_time_s", "")),
             ("of which preconditioning (s)", run.get("precondition_wall_time_s", "")),
             ("host requests", run.get("host_requests", "")),
             ("IOPS, all operations", total.get("iops", "")), ("MB/s, all operations", total.get("mbps", "")),
             ("WAF (flash programs / host writes)", run.get("waf", "")),
             ("NAND WAF (NAND programmed sectors / host writes)", run.get("nand", {}).get("waf", ""))]
    body = key_value_table(pairs)
    body += f'<p>Integrity: <span class="{"good" if clean else "bad"}">{esc(verdict)}</span></p>'
    if run.get("errors"):
        body += "<p>Run errors:</p><ul>" + "".join(f"<li>{esc(e)}</li>" for e in run["errors"]) + "</ul>"
    ops = [op for op in OPS if op in run.get("ops", {})]
    rows = []
    for op in ops:
        figures = run["ops"][op]
        latency = figures.get("latency_us", {})
        rows.append([op, figures.get("requests", ""), figures.get("iops", ""), figures.get("mbps", ""),
                     figures.get("errors", "")] + [latency.get(k, "") for k in LATENCY_KEYS])
    if rows:
        body += "<p>Per operation (latency in microseconds):</p>" + table(
            ["operation", "requests", "IOPS", "MB/s", "errors"] + [f"{k} (us)" for k in LATENCY_KEYS], rows)
    else:
        body += '<p class="note">No operation had requests.</p>'
    return section("summary", "Summary", body)


def read_latency_csv(path):
    """[(upper edge us, cumulative fraction)] of latency_<op>.csv, from (first low edge, 0)."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != LATENCY_CSV_COLUMNS:
                raise BadInput(f"{path}: columns {reader.fieldnames}, expected {','.join(LATENCY_CSV_COLUMNS)}")
            rows = [(int(r["low_ns"]), int(r["high_ns"]), float(r["cumulative"])) for r in reader]
    except (OSError, ValueError, TypeError) as e:
        raise BadInput(f"{path}: unreadable: {e}") from e
    if not rows:
        return []
    return [(rows[0][0] / 1000, 0.0)] + [(high / 1000, cumulative) for _, high, cumulative in rows]


def latency_section(run_dir):
    curves = {op: read_latency_csv(run_dir / f"latency_{op}.csv") for op in OPS
              if (run_dir / f"latency_{op}.csv").exists()}
    curves = {op: points for op, points in curves.items() if points}
    if not curves:
        return section("latency", "Latency CDFs", '<p class="note">No latency_&lt;op&gt;.csv in the run folder.</p>')
    fig, (whole, tail) = plt.subplots(1, 2, figsize=(11, 4))
    for op, points in curves.items():
        whole.plot([p[0] for p in points], [p[1] for p in points], color=OP_COLOURS[op], label=op)
        slower = [(x, 1 - y) for x, y in points if y < 1]
        tail.plot([p[0] for p in slower], [p[1] for p in slower], color=OP_COLOURS[op], label=op)
    whole.set_ylabel("fraction of requests at most this slow")
    whole.set_title("latency CDF")
    tail.set_yscale("log")
    tail.set_ylim(top=0.1)
    tail.set_ylabel("fraction of requests slower")
    tail.set_title("tail: above p90 (p99 at 1e-2, p99.9 at 1e-3)")
    for ax in (whole, tail):
        ax.set_xscale("log")
        ax.set_xlabel("latency (us)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    caption = (f"From latency_{{{','.join(curves)}}}.csv: each histogram bucket's upper edge against the "
               "share of requests completed within it.")
    return section("latency", "Latency CDFs", svg_of(fig, "plot-latency-cdf", caption))


def series_section(run, run_dir):
    try:
        series = series_of(run, run_dir / "run.json")
    except MissingSeries as e:
        return section("series", "Time series", f'<p class="note">{esc(e)}</p>')
    caption = (f"{len(series['t_ms']):,} intervals of {series['interval_ms']:g} ms "
               "(scripts/plot_series.py draws the same figure on its own).")
    fig = series_figure(series)
    if len(series["t_ms"]) > RASTERISE_FROM_INTERVALS:
        for ax in fig.axes:
            for line in ax.get_lines():
                line.set_rasterized(True)
    return section("series", "Time series", svg_of(fig, "plot-series", caption))


def die_grid_shape(run):
    """(channels, ways) from the configuration echo, if they multiply to the number of dies."""
    config = run.get("config", {})
    dies = run.get("utilisation", {}).get("dies", [])
    try:
        channels, ways = int(config["nand.channels"]), int(config["nand.ways"])
    except (KeyError, ValueError):
        return None
    return (channels, ways) if channels * ways == len(dies) else None


def utilisation_section(run):
    utilisation = run.get("utilisation", {})
    dies, channel_busy = utilisation.get("dies", []), utilisation.get("channels", [])
    others = [(f"{key} utilisation", value) for key, value in utilisation.items()
              if not isinstance(value, list)]
    if not dies:
        return section("utilisation", "Utilisation", '<p class="note">run.json has no utilisation.dies.</p>' +
                       key_value_table(others))
    shape = die_grid_shape(run)
    note = ""
    if shape:
        channels, ways = shape
        grid = [[dies[channel + way * channels] for channel in range(channels)] for way in range(ways)]
        row_labels = [f"way {w}" for w in range(ways)]
    else:
        channels, ways = len(dies), 1
        grid = [dies]
        row_labels = ["die"]
        note = ('<p class="note">config nand.channels x nand.ways does not match the number of dies: the dies '
                "are shown in index order.</p>")
    show_channels = len(channel_busy) == channels
    rows = ways + (1 if show_channels else 0)
    fig, axes = plt.subplots(2 if show_channels else 1, 1, squeeze=False,
                             figsize=(max(5, 0.9 * channels + 2.5), 1.2 + 0.55 * rows),
                             gridspec_kw={"height_ratios": [ways, 1] if show_channels else [1]})
    die_axis = axes[0][0]
    image = _heat_row(die_axis, grid, row_labels)
    die_axis.set_title("die busy share (die index = channel + way x channels)" if shape else "die busy share")
    if show_channels:
        die_axis.tick_params(labelbottom=False)
        _heat_row(axes[1][0], [channel_busy], ["channel bus"])
        axes[1][0].set_xlabel("channel")
    else:
        die_axis.set_xlabel("channel" if shape else "die index")
    fig.colorbar(image, ax=[a[0] for a in axes], label="busy share", fraction=0.04, pad=0.02)
    body = svg_of(fig, "plot-utilisation", "Share of the measured run's simulated time each die (and channel "
                  "bus) was busy; colours on a fixed 0..1 scale.") + note + key_value_table(others)
    return section("utilisation", "Utilisation", body)


def _heat_row(ax, grid, row_labels):
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    ax.set_yticks(range(len(row_labels)), row_labels)
    ax.set_xticks(range(len(grid[0])))
    if len(grid[0]) <= 16:
        for y, row in enumerate(grid):
            for x, value in enumerate(row):
                ax.text(x, y, f"{100 * value:.0f}%", ha="center", va="center", fontsize=8,
                        color="black" if value > 0.6 else "white")
    return image


def counters_section(run):
    pairs = flatten(run.get("ftl", {}))
    shown = [(k, v) for k, v in pairs if v not in (0, 0.0, False, None, "", [])]
    body = key_value_table(shown) if shown else '<p class="note">Every FTL counter is zero.</p>'
    if len(shown) < len(pairs):
        body += f'<p class="note">{len(pairs) - len(shown)} counters that are zero are not shown.</p>'
    return section("ftl", "FTL counters", body)


def flat_section(run, key, section_id, title):
    pairs = flatten(run.get(key, {}))
    body = key_value_table(pairs) if pairs else f'<p class="note">run.json has no "{esc(key)}".</p>'
    return section(section_id, title, body)


def run_report(run_dir):
    try:
        run = load_run(run_dir)
        sections = [summary_section(run), latency_section(run_dir), series_section(run, run_dir),
                    utilisation_section(run), counters_section(run),
                    flat_section(run, "write_buffer", "write-buffer", "Write buffer"),
                    flat_section(run, "wear", "wear", "Wear")]
    except BadRunDir as e:
        raise BadInput(str(e)) from e
    nav = [("summary", "Summary"), ("latency", "Latency"), ("series", "Time series"),
           ("utilisation", "Utilisation"), ("ftl", "FTL counters"), ("write-buffer", "Write buffer"),
           ("wear", "Wear")]
    return page(f"ssdvp run {run_dir.resolve().name}: {run_title(run)}", nav, sections)


# ---- a sweep store ----

STORE_FIGURES = [("total.iops", "IOPS"), ("total.mbps", "MB/s")]
for _op in OPS:
    STORE_FIGURES += [(f"ops.{_op}.iops", f"{_op} IOPS"), (f"ops.{_op}.latency_us.p50", f"{_op} p50 (us)"),
                      (f"ops.{_op}.latency_us.p99", f"{_op} p99 (us)"),
                      (f"ops.{_op}.latency_us.p99.9", f"{_op} p99.9 (us)")]
STORE_FIGURES += [("waf", "WAF"), ("ftl.gc_runs", "GC runs"), ("utilisation.dies.mean", "die busy (mean)"),
                  ("integrity.mismatches", "mismatches"), ("sim_time_s", "sim time (s)"), ("wall_s", "wall (s)")]
STORE_TEXT_COLUMNS = ["tag", "platform", "workload", "repeat"]  # shown when they differ between runs


def read_store(folder):
    """The store's rows as a pandas DataFrame: results.parquet when pyarrow is there (the venv),
    else results.csv (Debian's python3 has no pyarrow)."""
    import pandas as pd
    parquet, csv_path = folder / "results.parquet", folder / "results.csv"
    if parquet.exists():
        try:
            import pyarrow  # noqa: F401  (pandas reads Parquet through it)
        except ImportError:
            if not csv_path.exists():
                raise BadInput(f"{parquet}: reading Parquet needs pyarrow (build-deps/pyenv/bin/python has it), "
                               "and there is no results.csv beside it") from None
        else:
            return _read_table(pd.read_parquet, parquet)
    return _read_table(pd.read_csv, csv_path)


def _read_table(read, path):
    try:
        return read(path)
    except (OSError, ValueError) as e:
        raise BadInput(f"{path}: unreadable: {e}") from e


def store_report(folder):
    df = read_store(folder)
    if "status" not in df.columns or "hash" not in df.columns:
        raise BadInput(f"{folder}: the store has no 'hash' and 'status' columns (not written by scripts/sweep.py?)")
    swept = []
    for keys in df.get("swept", []):
        for key in (keys.split(",") if isinstance(keys, str) else []):
            if key and key not in swept:
                swept.append(key)
    text_columns = [c for c in STORE_TEXT_COLUMNS if c in df.columns and df[c].nunique(dropna=True) > 1]
    figures = [(c, name) for c, name in STORE_FIGURES if c in df.columns and df[c].notna().any()]
    header = swept + text_columns + ["status"] + [name for _, name in figures]
    records = df.astype(object).where(df.notna(), None).to_dict("records")
    rows = []
    for record in records:
        rows.append([_store_value(record.get(f"config.{k}", "")) for k in swept] +
                    [_store_value(record.get(c, "")) for c in text_columns + ["status"]] +
                    [_store_value(record.get(c, "")) for c, _ in figures])
    counts = df["status"].value_counts()
    summary = key_value_table([("store", str(folder.resolve())), ("runs", len(df))] +
                              [(f"status {status}", int(n)) for status, n in counts.items()] +
                              [("swept keys", ", ".join(swept) or "none"),
                               ("workloads", "; ".join(sorted(map(str, df["workload"].dropna().unique())))
                                if "workload" in df.columns else "")])
    sections = [section("summary", "Summary", summary),
                section("runs", "Runs", "<p class=\"note\">One row per run; click a column to sort. Latency in "
                        "microseconds; MB/s is 10^6 bytes per second.</p>" + table(header, rows, sortable=True))]
    failed = [r for r in records if r["status"] != "ok"]
    if failed:
        failed_rows = [[_store_value(r.get("label", "")), r["status"], _store_value(r.get("exit_code", "")),
                        _store_value(r.get("error", ""))] for r in failed]
        sections.append(section("failed", "Failed runs", table(["run", "status", "exit code", "error"], failed_rows)))
    nav = [("summary", "Summary"), ("runs", "Runs")] + ([("failed", "Failed runs")] if failed else [])
    return page(f"ssdvp sweep {folder.resolve().name}", nav, sections)


def _store_value(value):
    """A store cell (missing: None) as a plain Python value (pandas gives numpy numbers)."""
    if value is None:
        return ""
    return value.item() if hasattr(value, "item") else value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="an ssdvp run folder (run.json) or a sweep store folder")
    parser.add_argument("-o", "--out", type=Path, help="the HTML page to write (default FOLDER/report.html)")
    args = parser.parse_args()
    folder = args.folder
    try:
        if not folder.is_dir():
            raise BadInput(f"{folder}: no such folder")
        if (folder / "run.json").exists():
            text = run_report(folder)
        elif (folder / "results.parquet").exists() or (folder / "results.csv").exists():
            text = store_report(folder)
        else:
            raise BadInput(f"{folder}: neither run.json (a run folder) nor results.parquet/results.csv (a sweep store)")
    except BadInput as e:
        print(f"ssdvp_report: {e}", file=sys.stderr)
        sys.exit(2)
    out = args.out or folder / "report.html"
    out.write_text(text, encoding="utf-8")
    print(out)


if __name__ == "__main__":
    main()
