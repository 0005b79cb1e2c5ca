"""``referee regress --html``: the LLR over games against the SPRT bounds."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.regress import regress
from referee.games import all_games
from referee.regress.page import render_regress_page
from referee.regress.run import RegressSummary
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
RANDOM = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)


def test_regress_writes_a_page_with_one_llr_point_per_block(tmp_path: Path) -> None:
    page = tmp_path / "regress.html"
    args = [
        "--game", "secret-race", "--candidate", RANDOM, "--baseline", RANDOM, "--quiet",
        "--move-ms", "3000", "--seed-secret", "fixed", "--max-games", "6",
        "--html", str(page),
    ]  # fmt: skip
    result = CliRunner().invoke(regress, args, catch_exceptions=False)
    assert result.exit_code == 2  # inconclusive at --max-games
    text = page.read_text()
    assert "inconclusive" in text and "after 6 games" in text
    assert text.count('class="bound"') == 2
    points = re.search(r'class="series"[^>]*points="([^"]*)"', text)
    assert points is not None
    assert len(points.group(1).split()) == 1 + 3  # the origin and one point per block
    assert "http" not in text


def _summary(**changes: Any) -> RegressSummary:
    """A summary as a run leaves it: floats straight from the statistics."""
    fields: dict[str, Any] = dict(
        status="H1", exit_code=0, game="manila", seats=3, mode="duplicate", test="sprt",
        llr=2.9871234567891234, lower=-2.9444389791664403, upper=2.9444389791664403,
        elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05, games=240, blocks=40, max_games=2000,
        mean=0.5641234567891234, mean_low=0.5212345678912345, mean_high=0.6071234567891234,
        elo=44.93217683249786, elo_low=14.765432198765432, elo_high=75.12345678912345,
        confidence=0.95, pentanomial=[3, 20, 51, 33, 13], candidate_faults={"timeout": 2},
        fault=None, candidate="python3 bots/new.py", baseline="python3 bots/old.py",
        field=["python3 bots/old.py"], sandbox="bwrap",
    )  # fmt: skip
    fields.update(changes)
    return RegressSummary(**fields)


def test_summary_is_a_table_of_rounded_numbers_not_a_json_dump() -> None:
    text = render_regress_page(_summary(), [(6 * k, 0.07 * k) for k in range(1, 41)])
    summary = text[text.index("<h2>Summary</h2>") :]
    assert not re.search(r"\d\.\d{4,}", summary), "floats are rounded"
    assert "{" not in summary and "[3, 20" not in summary and "None" not in summary
    assert "0.564 [0.521, 0.607]" in summary  # the estimate with its interval
    assert "44.9 [14.8, 75.1]" in summary
    assert "timeout: 2" in summary and "3, 20, 51, 33, 13" in summary


BBOXES = """() => {
  const svg = document.querySelector("svg.llr"), vb = svg.viewBox.baseVal;
  return [...svg.querySelectorAll("text")].map((t) => {
    const b = t.getBBox();
    return {text: t.textContent, left: b.x, right: b.x + b.width, top: b.y,
            bottom: b.y + b.height, width: vb.width, height: vb.height};
  });
}"""


@pytest.mark.parametrize("bound", [2.9444389791664403, 123.456])
def test_bound_labels_fit_inside_the_chart(bound: float, browser: Any, tmp_path: Path) -> None:
    page_path = tmp_path / "regress.html"
    summary = _summary(lower=-bound, upper=bound)
    page_path.write_text(render_regress_page(summary, [(6, 0.4), (12, 1.1)]))
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    try:
        page.goto(page_path.resolve().as_uri())
        boxes = page.evaluate(BBOXES)
        page.screenshot(path=str(tmp_path / "regress.png"), full_page=True)
    finally:
        page.close()
    labels = [b for b in boxes if "(H" in b["text"]]
    assert len(labels) == 2
    for b in boxes:
        assert b["left"] >= 0 and b["right"] <= b["width"], b
        assert b["top"] >= 0 and b["bottom"] <= b["height"], b
