"""The LAPT experiment's orderings that the test suite enforces, and how they were chosen.

An ordering is two runs of one checked part and one workload (two schemes, or two SLC block
counts in the sweep) of which the first finishes the trace in less simulated time. ORDERINGS
holds every such pair whose first run was at least TIE (5%) shorter at both the scaled and the
full size in the runs it was chosen from (held_at_both, once, from both stores); the suite checks
that each still holds (fast < slow) on the scaled runs, and the page lists them with the margins
of its own runs. A pair closer than 5% at either size, or ordered differently at the two sizes, is
not enforced: the page says which (left_out).

  python3 -m ssdvp_sweep.experiments.lapt_checks FULL_DIR SCALED_DIR   # prints HELD anew

Leaves out running (lapt.py) and the page (lapt_report.py).
"""
import itertools
import sys
import textwrap

from .lapt import CHECKED, TIE, margin

# Chosen by held_at_both from the full and scaled runs of CHOSEN_ON: per part/workload, the pairs
# "fast<slow" (run names: schemes, or SCHEME-SLC_BLOCKS in the sweep). ORDERINGS: (group, fast, slow).
CHOSEN_ON = "2026-11-27"
HELD = {
    'cache/exchange': 'combo-page<combo combo-page<mlc-homo lapt<combo lapt<mlc-homo '
                      'mlc-homo<combo slc-homo<combo slc-homo<combo-page slc-homo<lapt '
                      'slc-homo<mlc-homo slc-homo<slc-only slc-only<combo slc-only<combo-page '
                      'slc-only<lapt slc-only<mlc-homo',
    'cache/general': 'combo-page<combo combo-page<lapt combo-page<mlc-homo lapt<combo '
                     'lapt<mlc-homo mlc-homo<combo slc-homo<combo slc-homo<combo-page '
                     'slc-homo<lapt slc-homo<mlc-homo slc-homo<slc-only slc-only<combo '
                     'slc-only<lapt slc-only<mlc-homo',
    'cache/photoshop': 'combo-page<combo lapt<combo lapt<slc-only mlc-homo<combo slc-homo<combo '
                       'slc-homo<combo-page slc-homo<lapt slc-homo<mlc-homo slc-homo<slc-only '
                       'slc-only<combo',
    'cache/random': 'combo-page<combo lapt<combo lapt<combo-page lapt<slc-only mlc-homo<combo '
                    'mlc-homo<combo-page mlc-homo<slc-only slc-homo<combo slc-homo<combo-page '
                    'slc-homo<lapt slc-homo<mlc-homo slc-homo<slc-only slc-only<combo '
                    'slc-only<combo-page',
    'cache/tpcc': 'combo<lapt combo<mlc-homo combo<slc-only combo-page<combo combo-page<lapt '
                  'combo-page<mlc-homo combo-page<slc-only slc-homo<combo slc-homo<combo-page '
                  'slc-homo<lapt slc-homo<mlc-homo slc-homo<slc-only slc-only<lapt '
                  'slc-only<mlc-homo',
    'slc-sweep/general': 'combo-128<combo-16 combo-128<combo-32 combo-128<combo-64 '
                         'combo-128<lapt-16 combo-128<lapt-32 combo-128<mlc-homo '
                         'combo-256<combo-128 combo-256<combo-16 combo-256<combo-32 '
                         'combo-256<combo-64 combo-256<lapt-128 combo-256<lapt-16 '
                         'combo-256<lapt-32 combo-256<lapt-64 combo-256<mlc-homo '
                         'combo-32<combo-16 combo-64<combo-16 combo-64<combo-32 lapt-128<combo-16 '
                         'lapt-128<combo-32 lapt-128<combo-64 lapt-128<lapt-16 lapt-128<lapt-32 '
                         'lapt-128<lapt-64 lapt-128<mlc-homo lapt-16<combo-16 lapt-16<combo-32 '
                         'lapt-256<combo-128 lapt-256<combo-16 lapt-256<combo-32 '
                         'lapt-256<combo-64 lapt-256<lapt-128 lapt-256<lapt-16 lapt-256<lapt-32 '
                         'lapt-256<lapt-64 lapt-256<mlc-homo lapt-32<combo-16 lapt-32<combo-32 '
                         'lapt-32<mlc-homo lapt-64<combo-16 lapt-64<combo-32 lapt-64<combo-64 '
                         'lapt-64<lapt-16 lapt-64<mlc-homo mlc-homo<combo-16',
    'slc-sweep/photoshop': 'combo-128<combo-16 combo-256<combo-16 combo-32<combo-16 '
                           'combo-64<combo-16 lapt-128<combo-128 lapt-128<combo-16 '
                           'lapt-128<combo-256 lapt-128<combo-32 lapt-128<combo-64 '
                           'lapt-128<lapt-16 lapt-128<lapt-32 lapt-128<mlc-homo lapt-16<combo-128 '
                           'lapt-16<combo-16 lapt-16<combo-256 lapt-16<combo-32 lapt-16<combo-64 '
                           'lapt-256<combo-128 lapt-256<combo-16 lapt-256<combo-256 '
                           'lapt-256<combo-32 lapt-256<combo-64 lapt-256<lapt-128 '
                           'lapt-256<lapt-16 lapt-256<lapt-32 lapt-256<lapt-64 lapt-256<mlc-homo '
                           'lapt-32<combo-128 lapt-32<combo-16 lapt-32<combo-256 lapt-32<combo-32 '
                           'lapt-32<combo-64 lapt-64<combo-128 lapt-64<combo-16 lapt-64<combo-256 '
                           'lapt-64<combo-32 lapt-64<combo-64 mlc-homo<combo-128 '
                           'mlc-homo<combo-16 mlc-homo<combo-256 mlc-homo<combo-32 '
                           'mlc-homo<combo-64',
    'total/exchange': 'combo<mlc-homo combo-page<combo combo-page<lapt combo-page<mlc-homo '
                      'lapt<combo lapt<mlc-homo slc-homo<combo slc-homo<combo-page slc-homo<lapt '
                      'slc-homo<mlc-homo slc-homo<slc-only slc-only<combo slc-only<combo-page '
                      'slc-only<lapt slc-only<mlc-homo',
    'total/general': 'combo-page<combo combo-page<lapt combo-page<mlc-homo lapt<combo '
                     'lapt<mlc-homo slc-homo<combo slc-homo<combo-page slc-homo<lapt '
                     'slc-homo<mlc-homo slc-homo<slc-only slc-only<combo slc-only<lapt '
                     'slc-only<mlc-homo',
    'total/photoshop': 'combo-page<combo combo-page<mlc-homo combo-page<slc-only lapt<combo '
                       'mlc-homo<combo slc-homo<combo slc-homo<combo-page slc-homo<lapt '
                       'slc-homo<mlc-homo slc-homo<slc-only slc-only<combo',
    'total/random': 'combo<lapt combo<mlc-homo combo-page<combo combo-page<lapt '
                    'combo-page<mlc-homo lapt<mlc-homo slc-homo<combo slc-homo<combo-page '
                    'slc-homo<lapt slc-homo<mlc-homo slc-homo<slc-only slc-only<combo '
                    'slc-only<combo-page slc-only<lapt slc-only<mlc-homo',
    'total/tpcc': 'combo<lapt combo<mlc-homo combo-page<combo combo-page<lapt combo-page<mlc-homo '
                  'slc-homo<combo slc-homo<combo-page slc-homo<lapt slc-homo<mlc-homo '
                  'slc-homo<slc-only slc-only<lapt slc-only<mlc-homo',
}
ORDERINGS = [(g, *pair.split("<")) for g, pairs in HELD.items() for pair in pairs.split()]


def groups(results, parts=CHECKED):
    """{part/workload: {run name: sim_time_s}} of the completed runs of the parts."""
    out = {}
    for tag, r in results.items():
        part, workload, name = tag.split("/")
        if part in parts and r.get("status") == "ok":
            out.setdefault(f"{part}/{workload}", {})[name] = r["sim_time_s"]
    return out


def held(results, parts=CHECKED):
    """Every pair (group, fast, slow) of one group whose fast run is TIE shorter than slow."""
    out = set()
    for g, runs in groups(results, parts).items():
        for a, b in itertools.permutations(sorted(runs), 2):
            if margin(runs[a], runs[b]) >= TIE:
                out.add((g, a, b))
    return out


def held_at_both(full, scaled):
    return sorted(held(full) & held(scaled))


def left_out(results, parts=CHECKED):
    """Pairs that hold by TIE in these runs but are not enforced (not at both sizes)."""
    return sorted(held(results, parts) - set(ORDERINGS))


def check_figures(results, parts=CHECKED):
    """The suite's orderings on these runs, each as (claim, fast time, slow time): it holds when
    fast < slow."""
    out = []
    for g, fast, slow in ORDERINGS:
        if g.split("/")[0] not in parts:
            continue
        part, workload = g.split("/")
        out.append((f"{g}: {fast} shorter than {slow}", results[f"{g}/{fast}"]["sim_time_s"],
                    results[f"{g}/{slow}"]["sim_time_s"]))
    return out


def main(argv):
    from ..store import ResultsStore
    full, scaled = (ResultsStore(d).tagged_rows("lapt") for d in argv[:2])
    by_group = {}
    for g, fast, slow in held_at_both(full, scaled):
        by_group.setdefault(g, []).append(f"{fast}<{slow}")
    print("HELD = {")
    for g, pairs in by_group.items():
        lines = textwrap.wrap(" ".join(pairs), 100 - 12 - len(g), break_on_hyphens=False, break_long_words=False)
        texts = [repr(x + (" " if k < len(lines) - 1 else "")) for k, x in enumerate(lines)]
        print(f"    {g!r}: " + ("\n" + " " * (len(g) + 8)).join(texts) + ",")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
