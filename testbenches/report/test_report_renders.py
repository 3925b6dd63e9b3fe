#!/usr/bin/python3
"""scripts/ssdvp_report.py's pages render in a real headless Chromium (Debian's chromium and
chromium-driver, driven through Debian's python3-selenium). Two pages: a run on the small
platform with the time series on (randwrite on a filled drive, the default; or --run-dir), and
a sweep store of two runs made with scripts/sweep.py (when there is a binary). The run's page is
made by the venv's python (the test's), the store's by Debian's /usr/bin/python3, which has no
pyarrow (the report reads results.csv): both interpreters are covered. For each page
Chromium loads it (and sorts the store's table by a click), and the test checks:
  * the browser logged no error (no SEVERE console entry: a script error, a failed resource);
  * every expected section is there;
  * each expected plot (figure#plot-...) holds one <svg> or <img>, drawn at a non-zero size
    (an <img> also decoded), and every other svg/img of the page is drawn at a non-zero size;
then writes a full-page screenshot next to the report (report.png).

Exit status: 0 every check passed, 1 some failed (each named), 2 a run or the report failed,
77 (skip) when chromium, chromedriver or selenium is not installed (scripts/setup.sh installs
them); under CI=true that is a failure (1), naming what is missing.

  testbenches/report/test_report_renders.py [SSDVP_BINARY] [--run-dir RUN_WITH_SERIES] [--work DIR]
"""
import base64
import shutil
import subprocess
import sys

from report_test_support import SCRIPTS, SMALL, arguments, series_run
from small_platform import skip

REPORT = SCRIPTS / "ssdvp_report.py"
SWEEP = SCRIPTS / "sweep.py"
DEBIAN_PYTHON = "/usr/bin/python3"
RUN_SECTIONS = ["summary", "latency", "series", "utilisation", "ftl", "write-buffer", "wear"]
RUN_PLOTS = {"plot-latency-cdf": "latency", "plot-series": "series",  # figure id: its section
             "plot-utilisation": "utilisation"}
STORE_SECTIONS = ["summary", "runs"]

# Every top-level <svg> and <img> of the page: the figure it is in, its drawn size, and for an
# <img> whether it decoded.
PLOT_SIZES_JS = """
return Array.from(document.querySelectorAll("svg, img"))
  .filter(function (e) { return !e.parentElement.closest("svg"); })
  .map(function (e) {
    var box = e.getBoundingClientRect(), figure = e.closest("figure");
    return {figure: figure ? figure.id : "", tag: e.tagName.toLowerCase(), width: box.width, height: box.height,
            decoded: e.tagName.toLowerCase() !== "img" || e.naturalWidth > 0};
  });
"""


class Checks:
    def __init__(self):
        self.passed, self.failed = 0, 0

    def expect(self, ok, what, detail=""):
        print(f"{'PASS' if ok else 'FAIL'} {what}" + ("" if ok or not detail else f": {detail}"), flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def run_or_exit(command, what):
    proc = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=280)
    if proc.returncode != 0:
        print(f"ERROR {what}: {' '.join(map(str, command))} exited {proc.returncode}:\n"
              f"{proc.stderr[-3000:]}", file=sys.stderr)
        sys.exit(2)


def sweep_store(binary, work):
    """A store of two runs (ftl.op 0.1 and 0.3) on the small platform, through scripts/sweep.py."""
    out = work / "sweep"
    settings = [arg if arg != "-s" else "--set" for arg in SMALL]
    run_or_exit([sys.executable, SWEEP, "--binary", binary, "--out", out, "--workers", "1", *settings,
                 "--grid", "ftl.op=0.1,0.3", "--workload", "fio:rw=randwrite,bs=4k,iodepth=32,io=5000"],
                "the sweep")
    return out


def chromium():
    """A headless Chromium under selenium, keeping the browser's console log; exits 77 if any of
    the three is not installed."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        skip("python3-selenium is not installed (scripts/setup.sh installs it)")
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not browser or not driver:
        skip("chromium or chromedriver is not installed (Debian's chromium and chromium-driver; "
             "scripts/setup.sh installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def check_page(browser, checks, name, html, sections, plots, sort_table=False):
    browser.get(html.resolve().as_uri())
    if sort_table:
        headers = browser.find_elements("css selector", "table.sortable th")
        checks.expect(len(headers) > 0, f"{name}: has a sortable table")
        for header in headers[-1:] + headers[:1]:
            header.click()
            header.click()
    severe = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    checks.expect(not severe, f"{name}: no console errors", " | ".join(severe))
    for section in sections:
        present = browser.execute_script("return !!document.querySelector('section#' + arguments[0] + ' > h2')",
                                         section)
        checks.expect(present, f"{name}: section '{section}'")
    drawn = browser.execute_script(PLOT_SIZES_JS)
    for plot, section in plots.items():
        elements = [e for e in drawn if e["figure"] == plot]
        note = browser.execute_script(
            "var s = document.querySelector('section#' + arguments[0]); return s ? s.innerText.slice(0, 300) : ''",
            section)
        checks.expect(len(elements) == 1, f"{name}: figure#{plot} holds one svg/img",
                      f"found {len(elements)}; the section reads: {note!r}")
    for element in drawn:
        where = f"{element['tag']} in figure#{element['figure']}" if element["figure"] else element["tag"]
        checks.expect(element["width"] > 0 and element["height"] > 0 and element["decoded"],
                      f"{name}: {where} drawn ({element['width']:.0f} x {element['height']:.0f} px)",
                      "zero size or not decoded")
    screenshot = html.with_suffix(".png")
    page = browser.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = browser.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": page["width"], "height": page["height"], "scale": 1}})
    screenshot.write_bytes(base64.b64decode(shot["data"]))
    checks.expect(screenshot.stat().st_size > 10000, f"{name}: screenshot {screenshot}")


def main():
    args = arguments(__doc__.split("\n\n")[0])
    browser = chromium()
    checks = Checks()
    try:
        try:
            run = series_run(args)
        except RuntimeError as e:  # ssdvp failed
            print(f"ERROR {e}", file=sys.stderr)
            sys.exit(2)
        # The run's page through `ssdvp report` (the binary's subcommand runs the script).
        run_or_exit([args.binary, "report", run] if args.binary else [sys.executable, REPORT, run], "the run's report")
        check_page(browser, checks, "run page", run / "report.html", RUN_SECTIONS, RUN_PLOTS)
        if args.binary:
            store = sweep_store(args.binary, args.work)
            run_or_exit([DEBIAN_PYTHON, REPORT, store], "the store's report")
            check_page(browser, checks, "store page", store / "report.html", STORE_SECTIONS, {}, sort_table=True)
    finally:
        browser.quit()
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
