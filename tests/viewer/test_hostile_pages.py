"""The forger bot's text in the HTML pages, loaded in a real headless Chromium: a
match's viewer (whole and one seat's) and a tournament report with its viewer
links.  No bot text runs as script or hides the evidence of a fault: every move
item renders and the fault items quote what the bot sent."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.core.forger_bot import BATTERY, PWNED, STRAY
from tests.viewer.test_browser import open_page

ROOT = Path(__file__).resolve().parents[2]
FORGER = f"{sys.executable} {ROOT / 'tests' / 'core' / 'forger_bot.py'}"
ROLES = ["type", "timeout", "crash", "plain"]


def invoke(*args: str) -> str:
    """``referee ARGS`` in a process of its own (playwright holds this thread's event
    loop, so matches cannot run here); its stdout."""
    proc = subprocess.run(
        [sys.executable, "-m", "referee.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Manila match of four forger bots: a protocol fault quoting a 900 KB type, a
    timeout quoting a stray line, a crash quoting stderr, and a clean seat."""
    path = tmp_path_factory.mktemp("hostile") / "match.jsonl"
    bots = [arg for role in ROLES for arg in ("--bot", f"{FORGER} {role}")]
    invoke("play", "manila", *bots, "--seed", "5", "--sandbox", "none", "--record", str(path))
    return path


def embedded(html: str) -> dict[str, Any]:
    """The page's data, checked to hold no ``<`` or ``>`` that could end its script
    or open a comment."""
    match = re.search(
        r'<script type="application/json" id="referee-data">(.*?)</script>', html, re.S
    )
    assert match is not None
    assert not re.search("[<>&\u2028\u2029]", match.group(1))
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def check_viewer(browser: Any, page_path: Path) -> None:
    """The page renders every move item, runs no bot text, and shows the faults."""
    data = embedded(page_path.read_text(encoding="utf-8"))
    page, errors = open_page(browser, page_path)
    try:
        assert errors == [] and page_is_safe(page)
        items = page.locator("#moves li")
        assert items.count() == len(data["moves"]) > 0
        faults = page.locator("#moves li.fault").all_inner_texts()
        assert len(faults) == 3
        joined = "\n".join(faults)
        assert "</script><!--<script>" + PWNED in joined  # the evidence, as sent
        assert repr(STRAY) in joined
        assert "more bytes" in joined
        page.evaluate("RefereeViewer.goto(RefereeViewer.data().plies)")
        assert errors == [] and page_is_safe(page)
        # the result (bot-chosen names among it) shows once the game reaches its end
        assert page.locator("table.result tr").count() == 1 + len(ROLES)
    finally:
        page.close()


def test_viewer_pages_of_a_hostile_match(browser: Any, record: Path, tmp_path: Path) -> None:
    whole = Path(invoke("view", str(record), "-o", str(tmp_path / "whole.html")).strip())
    check_viewer(browser, whole)
    seat = Path(invoke("view", str(record), "--seat", "1", "-o", str(tmp_path / "s1.html")).strip())
    check_viewer(browser, seat)


def test_report_and_its_viewers(browser: Any, tmp_path: Path) -> None:
    names = [
        f"</script><!--<script>{PWNED}</script>",
        f"<img src=x onerror={PWNED}>",
        BATTERY[5] + BATTERY[9],
    ]
    roles = ["type", "timeout", "plain"]
    config = tmp_path / "hostile.toml"
    config.write_text(
        'name = "hostile"\ngame = "manila"\nseats = 3\ngames = 1\nsandbox = "none"\n'
        + "".join(
            f"[[bots]]\nname = {json.dumps(n)}\ncommand = {json.dumps(f'{FORGER} {r}')}\n"
            for n, r in zip(names, roles, strict=True)
        )
    )
    run = tmp_path / "run"
    invoke("tournament", str(config), "--out", str(run), "--quiet")
    report = Path(invoke("report", str(run), "--viewers").strip())
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(report.resolve().as_uri())
        page.wait_for_load_state("load")
        assert page_is_safe(page)
        shown = page.locator("#standings td:first-child").all_inner_texts()
        assert sorted(shown) == sorted(names)  # the names as text, exactly
        links = page.locator("#matches a").all()
        assert len(links) == 1
        target = (report.parent / (links[0].get_attribute("href") or "")).resolve()
    finally:
        page.close()
    assert errors == []
    data = embedded(target.read_text(encoding="utf-8"))
    assert sorted(data["seats"]) == sorted(names)
    viewer, errors = open_page(browser, target)
    try:
        assert errors == [] and page_is_safe(viewer)
        assert viewer.locator("#moves li").count() == len(data["moves"])
        faults = viewer.locator("#moves li.fault").all_inner_texts()
        assert len(faults) == 2 and any(repr(STRAY) in f for f in faults)
    finally:
        viewer.close()


def page_is_safe(page: Any) -> bool:
    return bool(page.evaluate("typeof window.__pwned") == "undefined")
