"""Nothing a bot writes forges what a person reads: the forger bot's hostile name,
stderr, stray lines and 900 KB unknown message type pushed through ``play`` (every
format), ``tournament`` and ``results`` (every format) and ``check-bot``, asserting
on the exact text printed; its record keeps the bot's own bytes within the caps.
Also: Ctrl-C (a real SIGINT to the process group) exits 130 from every long
command, and a closed output pipe ends a command quietly."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from referee.cli.main import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, main
from referee.display import csv_cell, terminal
from referee.games import all_games
from referee.match.record import FaultLine, read_record
from referee.process.protocol import MAX_DETAIL_BYTES, cap_name
from tests.core import forger_bot
from tests.core.forger_bot import HUGE_TYPE, NAMES, STRAY
from tests.core.processes import alive
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
FORGER = f"{sys.executable} {ROOT / 'tests' / 'core' / 'forger_bot.py'}"
ZOO = f"{sys.executable} {ROOT / 'tests' / 'zoo' / 'zoo_bot.py'}"
# Ctrl-C as at a terminal: a shell starts background jobs with SIGINT ignored, and an
# ignored signal stays ignored across exec, so a suite run in the background would
# otherwise send these referees a SIGINT they never see.
REFEREE = [
    sys.executable,
    "-c",
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from referee.cli.main import main; main()",
]
ROLES = ["type", "timeout", "crash", "plain"]

UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""What must never be printed raw (newlines between lines aside)."""

UNESCAPED_PIPE = re.compile(r"(?<!\\)((?:\\\\)*)\|")


@pytest.fixture(scope="module", autouse=True)
def toy_registered() -> Iterator[None]:
    games = all_games()
    games[GAME.name] = GAME
    yield
    games.pop(GAME.name, None)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout_bytes.decode(), result.stderr_bytes.decode()


def assert_clean(text: str) -> None:
    """No terminal control, separator or bidi character in ``text``, and no
    unescaped fragment of the hostile strings."""
    assert UNSAFE.findall(text) == []
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text


def play(tmp_path: Path, fmt: str) -> tuple[str, Path]:
    record = tmp_path / f"{fmt}.jsonl"
    bots = [arg for role in ROLES for arg in ("--bot", f"{FORGER} {role}")]
    code, out, err = invoke(
        "play", "secret-race", *bots, "--seed", "3", "--move-ms", "1000",
        "--sandbox", "none", "--record", str(record), "--format", fmt,
    )  # fmt: skip
    assert code == 0, err
    assert_clean(out + err)
    assert len(out) < 20_000  # the 900 KB type is cut, not printed
    return out, record


def expected_names() -> list[str]:
    names = [cap_name(NAMES[role]) for role in ROLES]
    assert all(n is not None for n in names)
    return [n for n in names if n is not None]


def test_play_plain_shows_controls_visibly(tmp_path: Path) -> None:
    out, _ = play(tmp_path, "plain")
    lines = out.splitlines()
    assert len(lines) == 1 + len(ROLES) + 1  # header, one line per seat, summary
    for seat, name in enumerate(expected_names()):
        assert lines[1 + seat].split()[0] == str(seat)
        assert terminal(name) in lines[1 + seat]
    assert "+1\\x1b[2J\\x1b]0;owned\\x07|a|b|" in lines[2]
    assert "-1\\nforged row\\r\\x1b]52;c;ZXZpbA==\\x07\\u2028" in lines[3]
    assert f"its last ignored stdout line: {terminal(repr(STRAY))}" in lines[2]
    assert "more bytes" in lines[1] and "protocol" in lines[1]
    assert "more characters" in lines[4]


def test_play_github_keeps_the_table_shape(tmp_path: Path) -> None:
    out, _ = play(tmp_path, "github")
    table = out.splitlines()[:-1]
    assert len(table) == 2 + len(ROLES)
    assert {len(UNESCAPED_PIPE.findall(line)) for line in table} == {8}  # 7 columns
    assert "&lt;/script&gt;&lt;!--&lt;script&gt;" in out and "<script" not in out
    assert "\\|a\\|b\\|" in table[3] and "-1<br>forged row<br>" in table[4]


def test_play_csv_has_no_formula(tmp_path: Path) -> None:
    out, _ = play(tmp_path, "csv")
    match_part, seats_part = out.strip().split("\n\n")
    (match,) = list(csv.DictReader(io.StringIO(match_part.removeprefix("# match\n"))))
    assert all(not cell.startswith(("=", "+", "-", "@")) for cell in match.values() if cell)
    rows = list(csv.DictReader(io.StringIO(seats_part.removeprefix("# seats\n"))))
    assert len(rows) == len(ROLES)
    assert [r["ready name"] for r in rows] == [csv_cell(n) for n in expected_names()]
    for row in rows:
        for cell in row.values():
            assert not cell.startswith(("=", "+", "-", "@")) or cell == "-"
    assert rows[0]["ready name"] == '\'=HYPERLINK("http://x","y")'


def test_play_json_is_exact_and_matches_the_record(tmp_path: Path) -> None:
    out, record = play(tmp_path, "json")
    rows = json.loads(out)["seats"]
    # JSON carries the names exactly as the bots sent them, within the name cap.
    assert [r["ready name"] for r in rows] == expected_names()
    assert [r["verdict"] for r in rows] == ["protocol", "timeout", "crash", "ok"]
    detail = rows[0]["detail"]
    assert HUGE_TYPE[:60] in detail  # the bot's own characters, unescaped
    assert len(detail.encode()) <= MAX_DETAIL_BYTES and re.search(r"[\d,]+ more bytes$", detail)
    assert repr(STRAY) in rows[1]["detail"]
    # The record keeps exactly what the table showed, is small, and replays.
    assert record.stat().st_size < 20_000
    faults = [line for line in read_record(record) if isinstance(line, FaultLine)]
    assert [f.detail for f in faults] == [r["detail"] for r in rows[:3]]
    code, out, err = invoke("replay", str(record))
    assert code == 0, err


def tournament_config(tmp_path: Path) -> Path:
    """A run whose entrants' names (chosen by the organiser, shown as hostile text
    anyway) are hostile; the first entrant faults with the 900 KB type."""
    names = [NAMES["type"], forger_bot.BATTERY[10] + forger_bot.BATTERY[11] + "\x1b[2J|x|"]
    config = tmp_path / "hostile.toml"
    config.write_text(
        'name = "hostile"\ngame = "secret-race"\nseats = 2\nrounds = 1\nmove_ms = 2000\n'
        'sandbox = "none"\n'
        f"[[bots]]\nname = {json.dumps(names[0])}\ncommand = {json.dumps(FORGER + ' type')}\n"
        f"[[bots]]\nname = {json.dumps(names[1])}\ncommand = {json.dumps(FORGER + ' plain')}\n"
    )
    return config


def test_tournament_and_results_in_every_format(tmp_path: Path) -> None:
    out_dir = tmp_path / "run"
    code, out, err = invoke(
        "tournament", str(tournament_config(tmp_path)), "--out", str(out_dir), "--format",
        "grid", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert_clean(out + err)
    assert "'=HYPERLINK" not in out and '=HYPERLINK("http://x","y")' in out
    shown: dict[str, str] = {}
    for fmt in ("plain", "grid", "github", "markdown", "json", "csv"):
        code, shown[fmt], err = invoke("results", str(out_dir), "--format", fmt)
        assert code == 0, err
        assert_clean(shown[fmt] + err)
    data = json.loads(shown["json"])
    names = [
        b["name"]
        for b in msgspec.json.decode((out_dir / "manifest.json").read_bytes())["config"]["bots"]
    ]
    assert sorted(r["bot"] for r in data["standings"]) == sorted(names)  # exact data
    assert sum(r["protocol"] for r in data["standings"]) == 2
    sections = shown["csv"].split("\n\n")
    standings = list(csv.DictReader(io.StringIO(sections[0].split("\n", 1)[1])))
    assert sorted(r["bot"] for r in standings) == sorted(csv_cell(n) for n in names)
    assert all(not r["bot"].startswith("=") for r in standings)
    for fmt in ("github", "markdown"):
        tables = [t for t in shown[fmt].split("\n\n") if t.strip()]
        for table in tables:
            rows = [line for line in table.splitlines() if line.startswith("|")]
            assert len({len(UNESCAPED_PIPE.findall(line)) for line in rows}) == 1, table
        assert "<script" not in shown[fmt]
    for fmt in ("plain", "grid"):
        assert terminal(names[1]) in shown[fmt]
        assert len(shown[fmt].splitlines()) < 40


def test_check_bot_quotes_what_the_bot_wrote() -> None:
    code, out, err = invoke(
        "check-bot", "secret-race", f"{FORGER} type", "--sandbox", "none", "--move-ms", "2000"
    )
    assert code == 1, err
    assert_clean(out + err)
    lines = out.splitlines()
    verdict = lines[-1]
    assert verdict.startswith("NOT clean (")
    problems = int(verdict.removeprefix("NOT clean (").split(" ")[0])
    assert sum(1 for line in lines if line.startswith("problem: ")) == problems
    # Every line is the referee's: a problem, its indented stderr tail, a note or the verdict.
    for line in lines[:-1]:
        assert line.startswith(("problem: ", "    ", "note: ")), line
    assert "    | \\x9b31mC1 CSI\\x9b0m" in lines and "    | \\u202eevil bidi\\u202c" in lines
    assert f"calls itself {terminal(repr(NAMES['type']))}" in verdict
    assert len(out) < 40_000


# -- Ctrl-C and broken pipes, on real processes ---------------------------------------


def interrupt(args: list[str], marker: Path, bots: int, tmp_path: Path) -> str:
    """Run ``referee ARGS`` in its own process group, wait until ``bots`` bots wrote
    their pids to ``marker``, send SIGINT to the group; return its stderr after
    checking it exited 130 and every bot is gone."""
    proc = subprocess.Popen(
        [*REFEREE, *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if marker.exists() and len(marker.read_text().split()) >= bots:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.3)  # the referee is now waiting for a hung bot
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == EXIT_INTERRUPTED, err
    text = err.decode()
    assert "Traceback" not in text and "Aborted!" not in text
    pids = [int(p) for p in marker.read_text().split()]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in pids):
        time.sleep(0.05)
    assert not [p for p in pids if Path(f"/proc/{p}").exists() and alive(p)]
    return text


def test_play_exits_130_on_sigint(tmp_path: Path) -> None:
    marker = tmp_path / "pids"
    hung = f"{ZOO} hang {marker}"
    args = ["play", "manila", "--bot", hung, "--bot", hung, "--bot", hung]
    err = interrupt([*args, "--move-ms", "60000", "--sandbox", "none"], marker, 3, tmp_path)
    assert "interrupted" in err


def test_check_bot_exits_130_on_sigint(tmp_path: Path) -> None:
    marker = tmp_path / "pids"
    args = ["check-bot", "manila", f"{ZOO} never_ready {marker}", "--startup-ms", "60000"]
    interrupt([*args, "--sandbox", "none"], marker, 1, tmp_path)


@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_regress_exits_130_on_sigint(tmp_path: Path, concurrency: str) -> None:
    marker = tmp_path / "pids"
    args = [
        "regress", "--game", "manila", "--candidate", f"{ZOO} hang {marker}",
        "--baseline", f"{ZOO} ok", "--move-ms", "60000", "--sandbox", "none",
        "--concurrency", concurrency, "--quiet",
    ]  # fmt: skip
    # Concurrency 2 runs two blocks at once: two candidates started.
    interrupt(args, marker, int(concurrency), tmp_path)


@pytest.mark.parametrize("args", [["schema", "manila"], ["games", "--format", "json"]])
def test_closed_output_pipe_exits_quietly(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte, as after `| head -0`
    try:
        proc = subprocess.run(
            [*REFEREE, *args], stdout=write, stderr=subprocess.PIPE, timeout=60, check=False
        )
    finally:
        os.close(write)
    assert proc.returncode == EXIT_BROKEN_PIPE
    assert proc.stderr == b""
