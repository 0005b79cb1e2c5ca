"""A newcomer's first hour (issue 14): the rough edges of a fresh clone, one test each."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.cli.play import _short_name
from referee.games import all_games
from referee.process.preflight import check_script_paths, display_stem, script_arguments
from referee.tournament.config import ConfigError, load_config
from referee.tournament.resultsdb import MatchRow
from referee.tournament.run import TournamentError
from referee.tournament.standings import display_standings, pairwise_data, standings
from tests.core.toygame import GAME as TOY

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
RANDOM = f"{PY} {ROOT / 'bots' / 'random_bot.py'}"
ZOO = f"{PY} {ROOT / 'tests' / 'zoo' / 'zoo_bot.py'}"


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def tiny_config(path: Path, *commands: str, extra: str = "") -> Path:
    """A one-match Manila config for three bots."""
    bots = "".join(
        f'[[bots]]\nname = "b{i}"\ncommand = "{c}"\n'
        for i, c in enumerate(commands or (RANDOM,) * 3)
    )
    path.write_text(f'name = "tiny"\ngame = "manila"\nseats = 3\n{extra}\n{bots}')
    return path


# -- 1. make demo twice ---------------------------------------------------------------


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_works_twice_in_fresh_run_directories(tmp_path: Path) -> None:
    config = tiny_config(tmp_path / "demo.toml", extra="games = 1")
    runs = tmp_path / "runs"
    make = [
        "make",
        "-s",
        "-C",
        str(ROOT),
        "-o",
        ".venv/.setup-stamp",  # never re-install from a test
        "demo",
        f"BIN={Path(PY).parent}",
        f"DEMO_CONFIG={config}",
        f"RUNS={runs}",
    ]
    outputs = [subprocess.run(make, capture_output=True, text=True, timeout=120) for _ in range(2)]
    for done in outputs:
        assert done.returncode == 0, done.stderr
        assert "demo run directory: " in done.stdout
    dirs = sorted(runs.iterdir())
    assert len(dirs) == 2
    for run in dirs:
        assert (run / "manifest.json").is_file()
        assert str(run) in outputs[0].stdout + outputs[1].stdout


# -- 2. a mistyped bot script is an error before anything starts ----------------------


def test_script_arguments_are_found() -> None:
    assert script_arguments(["python3", "bots/x.py", "--seed", "3"]) == ["bots/x.py"]
    assert script_arguments(["node", "-e", "x"]) == []
    assert script_arguments(["python3", "-X", "dev", "-m", "mybot", "--x", "y"]) == []
    assert script_arguments(["python3", "-u", "b.py"]) == ["b.py"]
    assert script_arguments(["node", "bot.js"]) == ["bot.js"]
    assert script_arguments(["java", "-jar", "bot.jar"]) == ["bot.jar"]
    # An output file of a compiled bot is not a script.
    assert script_arguments(["./bot", "--out", "log.txt"]) == []


def test_missing_script_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = "python3 bots/nosuch.py"
    code, out, err = invoke("play", "manila", "--bot", bad, "--bot", RANDOM, "--bot", RANDOM)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "bots/nosuch.py" in err and "not found" in err
    code, out, err = invoke("check-bot", "manila", bad)
    assert code == 2 and "bots/nosuch.py" in err and err.count("\n") == 1
    config = tiny_config(tmp_path / "t.toml", RANDOM, RANDOM, "python3 nosuch.py")
    code, _, err = invoke("tournament", str(config), "--out", str(tmp_path / "run"))
    assert code == 2 and "nosuch.py" in err and err.count("\n") == 1
    assert not (tmp_path / "run").exists()
    code, _, err = invoke("regress", "--game", "manila", "--candidate", bad, "--baseline", RANDOM)
    assert code == 4 and "bots/nosuch.py" in err  # regress: 4 = bad invocation
    with pytest.raises(ValueError, match="is a directory"):
        check_script_paths(f"python3 {tmp_path}", ".")


# -- 3. check-bot shows stderr, keeps logs, knows a bank ------------------------------


def test_check_bot_shows_the_stderr_tail_and_keeps_logs(tmp_path: Path) -> None:
    bot = tmp_path / "broken_bot.py"
    bot.write_text("import a_module_that_is_not_there\n")
    logs = tmp_path / "logs"
    # Unsandboxed: under root a sandboxed bot runs as a uid of its own, which cannot
    # read pytest's private temporary folders (docs/protocol.md, "The sandbox").
    code, out, _ = invoke(
        "check-bot", "manila", f"{PY} {bot}", "--logs", str(logs), "--sandbox", "none"
    )
    assert code == 1
    assert out.count("problem:") == 3
    assert out.count("ModuleNotFoundError: No module named 'a_module_that_is_not_there'") == 3
    assert "closed its output before answering" in out and "in time" not in out
    kept = sorted(p.relative_to(logs).as_posix() for p in logs.rglob("seat*.stderr.log"))
    assert "check-0-0/seat0.stderr.log" in kept and "check-0-2/seat2.stderr.log" in kept


def test_check_bot_bank_covers_slow_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # 0.6 s a move: far over a 100 ms move time, far within a 60 s bank.
    monkeypatch.setitem(all_games(), TOY.name, TOY)
    slow = f"{PY} {ROOT / 'tests' / 'core' / 'slow_bot.py'} 0.6"
    code, out, _ = invoke("check-bot", TOY.name, slow, "--move-ms", "100", "--bank-ms", "60000")
    assert code == 0, out
    assert "note:" in out and "slowest move took" in out


# -- 4. a failed Dask start leaves nothing behind -------------------------------------


def test_failed_dask_start_leaves_no_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tiny_config(tmp_path / "t.toml", extra="games = 1")
    out = tmp_path / "run"
    code, _, err = invoke("tournament", str(config), "--out", str(out), "--executor", "dask")
    assert code == 2 and "--scheduler" in err and not out.exists()

    def unreachable(address: str) -> None:
        raise TournamentError(f"cannot reach the Dask scheduler at {address}: timed out")

    monkeypatch.setattr("referee.cli.tournament.dask_executor", unreachable)
    code, _, err = invoke(
        "tournament", str(config), "--out", str(out), "--executor", "dask", "--scheduler", "x:1"
    )
    assert code == 2 and "cannot reach" in err and not out.exists()
    code, _, err = invoke("tournament", str(config), "--out", str(out))
    assert code == 0, err


# -- 5. replay validates --seat and --at ----------------------------------------------


def test_replay_rejects_seats_and_plies_out_of_range(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    code, _, err = invoke(
        "play", "manila", "--bot", RANDOM, "--bot", RANDOM, "--bot", RANDOM,
        "--seed", "3", "--record", str(record),
    )  # fmt: skip
    assert code == 0, err
    for args, word in [
        (["--seat", "3"], "seats 0-2"),
        (["--seat", "-1"], "--seat"),
        (["--at", "100000"], "plies 0-"),
        (["--at", "-1"], "--at"),
    ]:
        code, out, err = invoke("replay", str(record), *args)
        assert code == 2 and out == "" and word in err, (args, err)
    code, out, _ = invoke("replay", str(record), "--seat", "2")
    assert code == 0 and out


# -- 6. standings count per match per entrant -----------------------------------------


def row(i: int, bots: list[str], ranks: list[int], verdicts: list[str] | None = None) -> MatchRow:
    n = len(bots)
    return MatchRow(
        id=f"m{i}", block=i, rotation=0, seed=i, bots=bots,
        scores=[float(10 - r) for r in ranks], ranks=ranks,
        verdicts=verdicts or ["ok"] * n, details=[""] * n, moves=[5] * n,
        total_ms=[5.0] * n, max_ms=[2.0] * n, plies=20, record="",
    )  # fmt: skip


def test_shared_seats_count_once_per_match() -> None:
    # "a" holds two of four seats and wins all 24 matches (one of its seats ranks 1).
    rows = [
        row(i, ["a", "b", "a", "b"] if i % 2 else ["b", "a", "b", "a"], [1, 3, 2, 4] if i % 2
            else [3, 1, 4, 2])
        for i in range(24)
    ]  # fmt: skip
    table = {r["bot"]: r for r in standings(rows, ["a", "b"])}
    assert table["a"]["games"] == 24 and table["a"]["wins"] == 24 and table["a"]["win %"] == 100
    assert table["a"]["mean rank"] == 1 and table["b"]["mean rank"] == 3
    assert table["a"]["seats"] == 48
    pairs = {(p["bot"], p["opponent"]): p for p in pairwise_data(rows, ["a", "b"])}
    assert pairs["a", "b"]["n"] == 24 and pairs["a", "b"]["ahead %"] == 100


def test_tied_entrants_split_the_win() -> None:
    table = {r["bot"]: r for r in standings([row(0, ["a", "a", "b"], [1, 3, 1])], ["a", "b"])}
    assert table["a"]["wins"] == 0.5 and table["b"]["wins"] == 0.5
    assert table["a"]["games"] == 1 and table["a"]["win %"] == 50


# -- 7. every format carries every table, numbers as numbers --------------------------


def test_machine_formats_carry_every_table(tmp_path: Path) -> None:
    config = tiny_config(tmp_path / "t.toml", RANDOM, RANDOM, f"{ZOO} crash", extra="games = 3")
    out = tmp_path / "run"
    assert invoke("tournament", str(config), "--out", str(out), "--quiet")[0] == 0
    code, text, _ = invoke("results", str(out), "--format", "json")
    data = json.loads(text)
    assert code == 0 and set(data) >= {"standings", "pairwise", "seats"}
    crasher = next(r for r in data["standings"] if r["bot"] == "b2")
    assert crasher["faults"] == 3 and crasher["crash"] == 3
    assert all(isinstance(r["faults"], int) for r in data["standings"])
    code, text, _ = invoke("results", str(out), "--format", "csv")
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        "# standings",
        "# pairwise",
        "# seats",
    ]
    assert "bot,opponent,ahead %,low %,high %,n" in text
    code, _, err = invoke("results", str(out), "--format", "csv", "--out-dir", str(tmp_path / "t"))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == [
        "pairwise.csv",
        "seats.csv",
        "standings.csv",
    ]
    assert display_standings(data["standings"])[0]["faults"] in ("-", "crash 3")


# -- 8. partial runs and piped progress -----------------------------------------------


def test_partial_results_say_of_how_many_and_how_to_resume(tmp_path: Path) -> None:
    config = tiny_config(tmp_path / "t.toml", extra="games = 3")
    out = tmp_path / "run"
    code, _, err = invoke("tournament", str(config), "--out", str(out), "--progress-every", "0")
    assert code == 0
    # Piped (not a terminal): one progress line per match here (every 0 s).
    progress = [line.split(" matches")[0] for line in err.splitlines() if line.startswith("tiny:")]
    assert progress == ["tiny: 1 of 3", "tiny: 2 of 3", "tiny: 3 of 3"]
    # Drop one finished match from the database: the run is now partial.
    import sqlite3

    with sqlite3.connect(out / "results.sqlite") as db:
        db.execute("DELETE FROM matches WHERE id = (SELECT MIN(id) FROM matches)")
    code, text, err = invoke("results", str(out))
    assert code == 0 and "Standings (2 of 3 matches)" in text
    assert f"referee tournament --resume {out}" in err


# -- 9. display names -----------------------------------------------------------------


def test_display_names_come_from_the_script() -> None:
    assert _short_name("python3 bots/manila_bot.py --cautious", 1) == "manila_bot#1"
    assert display_stem("./build/mybot --fast") == "mybot"
    assert display_stem("node bots/examples/random_bot.js") == "random_bot"
    code, out, _ = invoke(
        "play", "manila", "--bot", RANDOM, "--bot", f"{RANDOM} --seed 4", "--bot", RANDOM
    )
    assert code == 0 and "random_bot#1" in out and "--seed" not in out
    assert "ready name" in out and " random " in out  # the name the bot sent in 'ready'
    code, out, _ = invoke("check-bot", "manila", RANDOM)
    assert code == 0 and "calls itself 'random'" in out.splitlines()[-1]


# -- 10. Puerto Rico seat counts agree ------------------------------------------------


def test_readme_seat_counts_match_the_games() -> None:
    readme = (ROOT / "README.md").read_text()
    for game in all_games().values():
        assert f"**{game.title}** ({game.min_seats}-{game.max_seats}" in readme, game.title
    rules = (ROOT / "docs" / "rules" / "puerto_rico.md").read_text()
    assert "2-5 seats" in rules


# -- 11. config and --record mistakes -------------------------------------------------


def test_games_and_rounds_together_are_rejected(tmp_path: Path) -> None:
    config = tiny_config(tmp_path / "t.toml", extra="games = 3\nrounds = 2")
    with pytest.raises(ConfigError, match="not both"):
        load_config(config)
    code, _, err = invoke("tournament", str(config), "--out", str(tmp_path / "run"))
    assert code == 2 and "not both" in err and not (tmp_path / "run").exists()


def test_record_under_a_file_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    record = tmp_path / "afile" / "m.jsonl"
    code, out, err = invoke(
        "play", "manila", "--bot", RANDOM, "--bot", RANDOM, "--bot", RANDOM,
        "--record", str(record),
    )  # fmt: skip
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "is a file, not a folder" in err and "Errno" not in err
    config = tiny_config(tmp_path / "t.toml", extra="games = 1")
    code, _, err = invoke("tournament", str(config), "--out", str(tmp_path / "afile" / "run"))
    assert code == 2 and "is a file, not a folder" in err and "Errno" not in err


# -- 12. packaging --------------------------------------------------------------------


def test_license_is_an_spdx_string() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    requires = project["build-system"]["requires"]
    assert any(r.replace(" ", "").startswith("setuptools>=77") for r in requires)
