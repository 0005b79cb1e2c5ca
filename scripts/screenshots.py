"""Make the README's screenshots: one viewer page per game (a bundled-bot game) and one
tournament report, photographed in headless Chromium into ``docs/images/``.

    .venv/bin/python scripts/screenshots.py [--out docs/images]

Plays the games with ``referee play`` (fixed seeds), runs a small Manila tournament for
the report, and needs Debian's chromium and the playwright package.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from referee.viewer import write_viewer
from referee.viewer.chromium import CHROMIUM_ARGS, find_chromium

ROOT = Path(__file__).resolve().parents[1]
REFEREE = [sys.executable, "-m", "referee.cli.main"]

GAMES = [
    # game, bot script, seats, seed, where to stop (fraction of the plies)
    ("manila", "manila_bot.py", 4, 11, 0.4),
    ("navegador", "navegador_bot.py", 4, 3, 0.6),
    ("puerto-rico", "puerto_rico_bot.py", 4, 3, 0.7),
    ("roads-and-boats", "roads_and_boats_bot.py", 3, 5, 0.93),
]


WANT = {"manila": "f.positions.length === 3 && f.crews.flat().length >= 6"}
"""A board worth showing: the first ply from ``stop`` on where this holds (JS, ``f``)."""

SHOW = """([stop, want]) => {
  const V = RefereeViewer, n = V.data().plies, ok = new Function("f", "return " + want);
  for (let p = Math.round(n * stop); p <= n; p++) { V.goto(p); if (ok(V.frame())) return p; }
  V.goto(Math.round(n * stop));
  return -1;
}"""


def play(game: str, bot: str, seats: int, seed: int, record: Path) -> None:
    """One bundled-bot game recorded at ``record``."""
    bots = [arg for _ in range(seats) for arg in ("--bot", f"python3 {ROOT / 'bots' / bot}")]
    cmd = [*REFEREE, "play", game, *bots, "--seed", str(seed), "--record", str(record)]
    subprocess.run(cmd, check=True, capture_output=True)


def tournament_report(tmp: Path) -> Path:
    """A small Manila round robin and its report page (with viewer pages)."""
    run = tmp / "run"
    cfg = ROOT / "tournaments" / "manila.toml"
    cmd = [*REFEREE, "tournament", str(cfg), "--out", str(run), "--concurrency", "2"]
    subprocess.run(cmd, check=True, capture_output=True)
    subprocess.run([*REFEREE, "report", str(run), "--viewers"], check=True, capture_output=True)
    return run / "report.html"


def main() -> None:
    """Write ``<game>.png`` for every game and ``report.png``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no chromium found (apt-get install chromium)")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as name, sync_playwright() as p:
        tmp = Path(name)
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for game, bot, seats, seed, stop in GAMES:
            record = tmp / f"{game}.jsonl"
            play(game, bot, seats, seed, record)
            page_path = write_viewer(record, tmp / f"{game}.html")
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []

            def on_error(error: object, errors: list[str] = errors) -> None:
                errors.append(str(error))

            page.on("pageerror", on_error)
            page.goto(page_path.resolve().as_uri())
            page.wait_for_selector("body[data-ready='1']")
            page.evaluate(SHOW, [stop, WANT.get(game, "true")])
            page.screenshot(path=str(args.out / f"{game}.png"), full_page=True)
            page.close()
            if errors:
                sys.exit(f"{game}: page errors: {errors}")
            print(args.out / f"{game}.png")
        report = tournament_report(tmp)
        page = browser.new_page(viewport={"width": 1000, "height": 1400})
        page.goto(report.resolve().as_uri())
        page.screenshot(path=str(args.out / "report.png"))
        page.close()
        print(args.out / "report.png")
        browser.close()


if __name__ == "__main__":
    main()
