"""Measure a viewer page in headless Chromium: file size, time until interactive, and
the time to step one ply (forwards, backwards and by random jumps).

    .venv/bin/python scripts/viewer_bench.py RECORD [--seat K]

Needs Debian's chromium and the playwright package (see the README).  Figures depend
on the machine and its load; this is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from referee.viewer import write_viewer
from referee.viewer.chromium import CHROMIUM_ARGS, find_chromium

STEP = """(mode) => {
  const V = window.RefereeViewer, n = V.data().plies, times = [];
  let seed = 7;
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  V.goto(mode === "backward" ? n : 0);
  for (let i = 0; i < n; i++) {
    const p = mode === "forward" ? i + 1
      : mode === "backward" ? n - i - 1 : Math.floor(rnd() * (n + 1));
    const t0 = performance.now();
    V.goto(p);
    document.body.getBoundingClientRect();  // force layout, as a real step does
    times.push(performance.now() - t0);
  }
  return times;
}"""


def main() -> None:
    """Print the figures for one record."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("record", type=Path)
    parser.add_argument("--seat", type=int, default=None)
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no chromium found")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        html = write_viewer(args.record, Path(tmp) / "bench.html", args.seat)
        build_s = time.perf_counter() - t0
        print(f"page: {html.stat().st_size / 1e6:.2f} MB, built in {build_s:.2f} s")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            ready = []
            for _ in range(3):
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(html.resolve().as_uri())
                page.wait_for_selector("body[data-ready='1']")
                ready.append(float(page.evaluate("document.body.dataset.readyMs")))
                page.close()
            print(f"interactive after (ms from navigation start): {[round(r) for r in ready]}")
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(html.resolve().as_uri())
            page.wait_for_selector("body[data-ready='1']")
            plies = page.evaluate("RefereeViewer.data().plies")
            for mode in ("forward", "backward", "random"):
                times = page.evaluate(STEP, mode)
                q = statistics.quantiles(times, n=100)
                print(
                    f"step {mode:8s} over {plies} plies: mean {statistics.mean(times):.2f} ms, "
                    f"p95 {q[94]:.2f} ms, max {max(times):.2f} ms"
                )
            browser.close()


if __name__ == "__main__":
    main()
