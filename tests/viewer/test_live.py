"""Unfinished records (``.part``), ``view --follow``, chance outcomes in words and the
progress output of ``view``."""

from __future__ import annotations

import io
import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.games.roads_and_boats.render import RENDERER as RB
from referee.match.record import ChanceLine, MoveLine, iter_record
from referee.progress import Progress
from referee.viewer.timeline import build_timeline
from tests.viewer.conftest import EXTREMES
from tests.viewer.test_viewer import embedded, engine_views, frames_of

ROOT = Path(__file__).resolve().parents[2]
# Ctrl-C as at a terminal: a shell starts background jobs with SIGINT ignored, and an
# ignored signal stays ignored across exec, so a suite run in the background would
# otherwise send these referees a SIGINT they never see.
REFEREE = [
    sys.executable,
    "-c",
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from referee.cli.main import main; main()",
]


def part_of(record: Path, target: Path, lines: int, tail: bytes = b"") -> Path:
    """The first ``lines`` lines of ``record`` as an unfinished ``target`` (plus
    ``tail``: half a line still being written)."""
    raw = record.read_bytes().split(b"\n")
    target.write_bytes(b"\n".join(raw[:lines]) + b"\n" + tail)
    return target


def plies_in(path: Path, lines: int) -> int:
    return sum(
        isinstance(line, (ChanceLine, MoveLine)) for n, line in iter_record(path) if n <= lines
    )


# -------------------------------------------------------------------- chance in words


@pytest.mark.parametrize(("game", "seats"), EXTREMES)
def test_no_chance_line_repeats_the_chance_label(
    game: str, seats: int, records: dict[tuple[str, int], Path]
) -> None:
    timeline, _ = build_timeline(records[(game, seats)], [None])
    chances = [e.text["omni"] for e in timeline.entries if e.kind == "chance"]
    assert chances or (game, seats) == ("roads-and-boats", 1)  # solo: a fixed map
    assert not [t for t in chances if t is None or t.startswith("chance")]


def test_roads_and_boats_chance_says_what_it_draws(records: dict[tuple[str, int], Path]) -> None:
    timeline, _ = build_timeline(records[("roads-and-boats", 4)], [None])
    chances = [e.text["omni"] or "" for e in timeline.entries if e.kind == "chance"]
    assert chances[0].startswith("map drawn: ") and "land hexes (" in chances[0]
    assert chances[1].startswith("temple order drawn, closest first: seat ")
    assert not any(t.isdigit() for t in chances)
    draws = RB.describe_chance([[12, "gold"], [30, "iron"]], SimpleNamespace(step="draw"))  # type: ignore[arg-type]
    assert draws == "mine draws: the mine on hex 12 yields gold, the mine on hex 30 yields iron"
    assert RB.describe_chance(["WOO", "PAS"], SimpleNamespace(step="deal")) == (  # type: ignore[arg-type]
        "land tiles dealt: woods, pasture"
    )


# -------------------------------------------------------------------- unfinished records


def test_view_renders_an_unfinished_part_record(
    records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[("manila", 3)]
    part = part_of(record, tmp_path / "game.jsonl.part", 40, tail=b'{"type":"mo')
    result = CliRunner().invoke(main, ["view", str(part)])
    assert result.exit_code == 0, result.output
    page = tmp_path / "game.html"
    assert result.output.strip() == str(page)
    data = embedded(page.read_text())
    assert data["finished"] is False and data["result"] is None and data["live"] is False
    assert data["plies"] == plies_in(record, 40)
    assert frames_of(data, "1") == engine_views(record, 1)[: data["plies"] + 1]
    # the record's own name finds its .part while the game runs
    result = CliRunner().invoke(main, ["view", str(tmp_path / "game.jsonl"), "--seat", "2"])
    assert result.exit_code == 0, result.output
    assert embedded((tmp_path / "game.seat2.html").read_text())["perspectives"] == ["2"]


def test_an_unfinished_record_is_still_checked(
    records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[("puerto-rico", 3)]
    raw = record.read_bytes().split(b"\n")
    moves = [i for i, line in enumerate(raw) if b'"type":"move"' in line]
    bad = json.loads(raw[moves[5]])
    bad["seat"] = (bad["seat"] + 1) % 3
    raw[moves[5]] = json.dumps(bad, separators=(",", ":")).encode()
    part = tmp_path / "bad.jsonl.part"
    part.write_bytes(b"\n".join(raw[: moves[5] + 3]) + b"\n")
    result = CliRunner().invoke(main, ["view", str(part)])
    assert result.exit_code == 2
    assert f"line {moves[5] + 1}" in result.output and "expected a move by seat" in result.output
    empty = tmp_path / "empty.jsonl.part"
    empty.write_bytes(b'{"type":"hea')
    result = CliRunner().invoke(main, ["view", str(empty)])
    assert result.exit_code == 2 and "no whole line yet" in result.output


def _wait(predicate: object, what: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60  # a safety net only
    while not predicate():  # type: ignore[operator]
        assert proc.poll() is None, f"view --follow ended early waiting for {what}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _page(path: Path) -> dict[str, object] | None:
    try:
        return embedded(path.read_text())
    except (FileNotFoundError, AssertionError):
        return None


def test_follow_rewrites_the_page_as_the_record_grows_until_it_finishes(
    records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[("navegador", 2)]
    final = tmp_path / "live.jsonl"
    part = tmp_path / "live.jsonl.part"
    page = tmp_path / "live.html"
    part.write_bytes(b"")  # the game has started; its first lines are not written yet
    proc = subprocess.Popen(
        [*REFEREE, "view", "--follow", str(final)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        part_of(record, part, 30)
        _wait(lambda: (_page(page) or {}).get("plies") == plies_in(record, 30), "30 lines", proc)
        first = _page(page)
        assert first is not None and first["live"] is True and first["finished"] is False
        part_of(record, part, 90, tail=b'{"type":"move","pl')
        _wait(lambda: (_page(page) or {}).get("plies") == plies_in(record, 90), "90 lines", proc)
        part.write_bytes(record.read_bytes())  # the whole record with its result...
        os.replace(part, final)  # ...published as the writer does at the end
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err.decode()
    assert out.decode().strip() == str(page)
    data = _page(page)
    assert data is not None and data["finished"] is True and data["live"] is False
    assert data["result"] is not None
    assert "unfinished, following" in err.decode() and "(finished)" in err.decode()


def test_follow_stops_on_ctrl_c_with_130_and_a_page_that_no_longer_reloads(
    records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    part = part_of(records[("manila", 3)], tmp_path / "cut.jsonl.part", 25)
    page = tmp_path / "cut.html"
    proc = subprocess.Popen(
        [*REFEREE, "view", "--follow", str(part)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        _wait(lambda: (_page(page) or {}).get("live") is True, "the first page", proc)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err.decode()
    data = _page(page)
    assert data is not None and data["live"] is False and data["finished"] is False


# -------------------------------------------------------------------- progress


def test_progress_off_a_terminal_is_at_most_a_line_a_second() -> None:
    now = [0.0]
    out = io.StringIO()
    with Progress("view g.jsonl", None, "plies", file=out, tty=False, clock=lambda: now[0]) as p:
        for done in range(1, 451):
            now[0] = done / 100  # 450 plies over 4.5 s
            p.update(done, total=450)
    lines = out.getvalue().splitlines()
    assert [int(line.split()[2]) for line in lines] == [100, 200, 300, 400, 450]
    assert lines[-1] == "view g.jsonl: 450 of 450 plies"  # the closing line
    quick = io.StringIO()
    with Progress("view g.jsonl", None, "plies", file=quick, tty=False, clock=lambda: 0.0) as p:
        for done in range(1, 501):
            p.update(done, total=500)
    assert quick.getvalue() == ""  # a quick job says nothing


def test_view_draws_a_progress_bar_on_a_terminal(
    records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[("puerto-rico", 5)]
    plies = build_timeline(record, [None])[0].plies
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [*REFEREE, "view", str(record), "-o", str(tmp_path / "p.html")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=slave, timeout=120,
        )  # fmt: skip
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
    assert proc.returncode == 0
    text = seen.decode(errors="replace")
    assert f"view {record.name}" in text and f"{plies}/{plies}" in text
