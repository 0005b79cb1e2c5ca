"""The viewer pages in a real headless Chromium: every ply of every game at both seat
extremes draws without a console error, the board shows as many pieces as the engine
says, seat views hide the other seats' shares, and the chart has a series per seat."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from referee.viewer import write_viewer
from referee.viewer.timeline import build_timeline
from tests.viewer.conftest import EXTREMES

T = TypeVar("T")


def expected_pieces(game: str, frame: dict[str, Any]) -> dict[str, int]:
    """Pieces the board must show, computed from the engine's view fields."""
    if game == "manila":
        return {
            ".punt": len(frame["cargo"]),
            ".crew": sum(len(c) for c in frame["crews"]),
            ".player": frame["seats"],
        }
    if game == "navegador":
        return {
            ".ship": sum(sum(p["ships"]) for p in frame["players"]),
            ".region": len(frame["regions"]),
            ".stone": sum(1 for p in frame["players"] if p["stone"] >= 0),
            ".colony": sum(sum(p["colonies"]) for p in frame["players"]),
        }
    if game == "puerto-rico":
        return {
            ".colonist": sum(
                sum(p["occupied"]) + sum(p["buildings"].values()) + p["san_juan"] + p["unplaced"]
                for p in frame["players"]
            ),
            ".cargo-ship": len(frame["ships"]),
            ".city-building": sum(len(p["buildings"]) for p in frame["players"]),
            ".role-taker": len(frame["taken_roles"]),
        }
    return {
        ".transporter": len(frame["transporters"]),
        ".building": len(frame["buildings"]),
        ".brick": len(frame["wonder"]),
        ".wall": len(frame["walls"]),
    }


STEP_ALL = """(selectors) => {
  const V = window.RefereeViewer, n = V.data().plies, failed = [], counts = {};
  for (let p = 0; p <= n; p++) {
    V.goto(p);
    if (document.querySelector("#board pre")) failed.push(p);
    const c = {};
    for (const s of selectors) c[s] = document.querySelectorAll("#board " + s).length;
    counts[p] = c;
  }
  return {failed, counts, series: document.querySelectorAll("#chart polyline.series").length};
}"""


class Reloading:
    """Steps on a page that reloads itself (a followed record): a reload that lands in
    the middle of a step destroys its execution context, so the step is run again
    once the page is ready; the page keeps its place across reloads."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def run(self, step: Callable[[], T]) -> T:
        for _ in range(20):
            self.page.wait_for_selector("body[data-ready='1']", timeout=10_000)
            try:
                return step()
            except Exception as exc:  # playwright's Error, whose module is optional
                if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                    raise
        raise AssertionError("the page never stayed still for one step")


def open_page(browser: Any, path: Path) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    return page, errors


@pytest.mark.parametrize(("game", "seats"), EXTREMES)
def test_every_ply_draws_the_engines_pieces(
    game: str,
    seats: int,
    browser: Any,
    records: dict[tuple[str, int], Path],
    tmp_path: Path,
) -> None:
    record = records[(game, seats)]
    html = write_viewer(record, tmp_path / f"{game}-{seats}.html")
    timeline, _ = build_timeline(record, [None])
    frames = timeline.frames["omni"]
    selectors = list(expected_pieces(game, frames[0]))
    page, errors = open_page(browser, html)
    try:
        out = page.evaluate(STEP_ALL, selectors)
        assert out["failed"] == []
        assert errors == []
        assert out["series"] == seats
        for ply in sorted({0, 1, len(frames) // 3, len(frames) // 2, len(frames) - 1}):
            assert out["counts"][str(ply)] == expected_pieces(game, frames[ply]), ply
        page.evaluate(f"RefereeViewer.goto({len(frames) // 2})")
        page.screenshot(path=str(tmp_path / f"{game}-{seats}.png"), full_page=True)
    finally:
        page.close()


def test_controls_keys_and_move_list(
    browser: Any, records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    html = write_viewer(records[("puerto-rico", 3)], tmp_path / "pr.html")
    page, errors = open_page(browser, html)
    try:
        plies = page.evaluate("RefereeViewer.data().plies")
        page.click("#last")
        assert page.evaluate("RefereeViewer.position()") == plies
        page.click("#first")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("RefereeViewer.position()") == 2
        page.click("#prev")
        assert page.evaluate("RefereeViewer.position()") == 1
        page.locator("#moves li").nth(10).click()
        target = int(page.locator("#moves li").nth(10).get_attribute("data-target") or -1)
        assert page.evaluate("RefereeViewer.position()") == target
        assert "current" in (page.locator("#moves li.current").first.get_attribute("class") or "")
        page.fill("#slider", "7")
        page.dispatch_event("#slider", "input")
        assert page.evaluate("RefereeViewer.position()") == 7
        assert page.locator("#moves li.fault").count() == 1
        assert page.locator("#moves li.fallback").count() >= 1
        assert page.locator("table.result tr").count() == 0  # no spoilers before the end
        page.click("#last")
        assert page.locator("table.result tr").count() == 4
        page.click("#first")
        page.select_option("#speed", "40")
        page.click("#play")
        page.wait_for_function("RefereeViewer.position() > 3", timeout=5000)
        page.click("#play")
        assert errors == []
    finally:
        page.close()


@pytest.mark.parametrize("seat", [0, 4])
def test_manila_seat_page_shows_only_own_shares(
    seat: int, browser: Any, records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[("manila", 5)]
    timeline, _ = build_timeline(record, [None, seat])
    ply = next(p for p, f in enumerate(timeline.frames["omni"]) if sum(f["shares"]) > 0)
    own = timeline.frames[str(seat)][ply]
    omni = timeline.frames["omni"][ply]
    html = write_viewer(record, tmp_path / f"seat{seat}.html", seat=seat)
    page, errors = open_page(browser, html)
    try:
        assert page.locator("#perspective option").count() == 1
        page.evaluate(f"RefereeViewer.goto({ply})")
        faces = page.locator("#board .share-face").count()
        backs = page.locator("#board .share-back").count()
        assert faces == sum(own["hand"].values()) + sum(own["mortgaged"].values())
        assert backs == sum(omni["shares"]) - omni["shares"][seat]
        assert page.locator(f"#board .player[data-seat='{seat}'] .share-back").count() == 0
        assert errors == []
    finally:
        page.close()
    all_page, errors = open_page(browser, write_viewer(record, tmp_path / "all.html"))
    try:
        all_page.evaluate(f"RefereeViewer.goto({ply})")
        assert all_page.locator("#board .share-back").count() == 0
        assert all_page.locator("#board .share-face").count() == sum(omni["shares"])
        all_page.select_option("#perspective", str(seat))
        assert all_page.locator("#board .share-back").count() == backs
        assert errors == []
    finally:
        all_page.close()


@pytest.mark.parametrize(("game", "seats"), EXTREMES[1::2])  # every game at most seats
def test_a_seat_page_steps_through_every_ply(
    game: str,
    seats: int,
    browser: Any,
    records: dict[tuple[str, int], Path],
    tmp_path: Path,
) -> None:
    record = records[(game, seats)]
    seat = seats - 1
    html = write_viewer(record, tmp_path / f"{game}-seat.html", seat=seat)
    timeline, _ = build_timeline(record, [seat])
    frames = timeline.frames[str(seat)]
    selectors = list(expected_pieces(game, frames[0]))
    page, errors = open_page(browser, html)
    try:
        out = page.evaluate(STEP_ALL, selectors)
        assert out["failed"] == [] and errors == []
        assert out["series"] == seats
        for ply in (0, len(frames) // 2, len(frames) - 1):
            assert out["counts"][str(ply)] == expected_pieces(game, frames[ply]), ply
    finally:
        page.close()


def test_chart_and_result_wait_for_the_game_to_reach_them(
    browser: Any, records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    html = write_viewer(records[("manila", 3)], tmp_path / "m.html")
    page, errors = open_page(browser, html)
    points = "[...document.querySelectorAll('#chart polyline.series')].map((p) => p.points.length)"
    try:
        plies = page.evaluate("RefereeViewer.data().plies")
        assert page.evaluate(points) == [1, 1, 1]  # ply 0: nothing of the game yet
        assert page.locator("table.result").count() == 0
        assert "shows at the end" in page.inner_text("#result")
        page.evaluate("RefereeViewer.goto(10)")
        assert page.evaluate(points) == [11, 11, 11]
        page.check("#spoilers")
        assert page.evaluate(points) == [plies + 1] * 3
        assert page.locator("table.result tr").count() == 4
        page.uncheck("#spoilers")
        assert page.locator("table.result").count() == 0
        page.click("#last")
        assert page.evaluate(points) == [plies + 1] * 3
        assert page.locator("table.result tr").count() == 4
        assert errors == []
    finally:
        page.close()


def test_a_followed_page_reloads_and_keeps_the_readers_place(
    browser: Any, records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[("puerto-rico", 3)]
    raw = record.read_bytes().split(b"\n")
    part = tmp_path / "g.jsonl.part"
    part.write_bytes(b"\n".join(raw[:30]) + b"\n")
    html = write_viewer(part, tmp_path / "g.html", live=True)
    page, errors = open_page(browser, html)
    # The page reloads itself every 1.5 s while unfinished: each step runs between two
    # reloads (a loaded machine can be slow enough for one to land in a step).
    live = Reloading(page)
    try:
        first = live.run(lambda: page.evaluate("RefereeViewer.data().plies"))
        assert "unfinished" in live.run(lambda: page.inner_text("#status"))
        assert live.run(page.title).startswith("(unf")
        live.run(lambda: page.select_option("#perspective", "1"))
        live.run(lambda: page.evaluate("RefereeViewer.goto(7)"))
        part.write_bytes(b"\n".join(raw[:60]) + b"\n")
        write_viewer(part, html, live=True)
        live.run(
            lambda: page.wait_for_function(
                f"window.RefereeViewer && RefereeViewer.data().plies > {first}"
            )
        )
        assert live.run(lambda: page.evaluate("RefereeViewer.position()")) == 7
        assert live.run(lambda: page.evaluate("RefereeViewer.perspective()")) == "1"
        second = live.run(lambda: page.evaluate("RefereeViewer.data().plies"))
        # at the end: follow the game
        live.run(lambda: page.evaluate(f"RefereeViewer.goto({second})"))
        write_viewer(record, html)  # the game finished
        page.wait_for_function("window.RefereeViewer && RefereeViewer.data().finished")
        page.wait_for_selector("body[data-ready='1']")
        final = page.evaluate("RefereeViewer.data().plies")
        assert page.evaluate("RefereeViewer.position()") == final > second
        assert page.locator("table.result tr").count() == 4
        assert page.inner_text("#status") == ""
        assert errors == []
    finally:
        page.close()


def test_roads_and_boats_names_and_legend_fit_the_panel(
    browser: Any, records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    from referee.match.record import Header, RecordWriter, SeatInfo, iter_record

    lines = [line for _, line in iter_record(records[("roads-and-boats", 4)])]
    header = lines[0]
    assert isinstance(header, Header)
    names = [f"roads_and_boats_bot_with_a_long_name#{s}" for s in range(4)]
    header.seats = [SeatInfo(n, s.command) for n, s in zip(names, header.seats, strict=True)]
    with RecordWriter(tmp_path / "long.jsonl", fsync=False) as writer:
        for line in lines[:-1]:
            writer.write(line)
        record = writer.finish(lines[-1])  # type: ignore[arg-type]
    page, errors = open_page(browser, write_viewer(record, tmp_path / "long.html"))
    try:
        page.evaluate("RefereeViewer.goto(RefereeViewer.data().plies)")
        out = page.evaluate("""() => {
          const panel = document.querySelector("#board rect.panel").getBBox();
          const texts = [...document.querySelectorAll("#board text")].filter((t) => {
            const b = t.getBBox(); return b.x >= panel.x - 1; });
          const outside = texts.filter((t) => { const b = t.getBBox();
            return b.x + b.width > panel.x + panel.width
              || b.y + b.height > panel.y + panel.height; });
          return {outside: outside.map((t) => t.textContent),
                  all: texts.map((t) => t.textContent).join("\\n")};
        }""")
        assert out["outside"] == []
        for seat, name in enumerate(names):
            assert f"{seat}: {name}" in out["all"]
        for word in ("river", "road", "bridge", "wall", "home", "woodcutter", "steamer factory"):
            assert word in out["all"]
        first_chance = page.locator("#moves li.chance").first.inner_text()
        assert "chance: map drawn:" in first_chance and "chance: chance" not in first_chance
        page.screenshot(path=str(tmp_path / "long.png"), full_page=True)
        assert errors == []
    finally:
        page.close()
