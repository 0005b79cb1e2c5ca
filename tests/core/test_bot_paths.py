"""Bot commands whose files the bot could not reach (issue 32 s. 3.1, 3.2; issue 33 item 1).

* A script named without a slash (``python3 my_bot.py``, ``node bot.js``) is resolved
  like any other, so the bot finds it from its own working directory.
* Under the sandbox as root, a bot in a private (0700) folder cannot read its script:
  preflight refuses it with one line naming the folder and the fix.
* A bot inside the folder of ``--record`` or ``--logs`` would have it hidden: refused.

The commands run for real (bubblewrap where it works here).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from referee.process.isolation.sandbox import bwrap_problem
from referee.process.spec import resolve_command
from tests.core.cli_helpers import (
    invoke,
    one_error_line,
    toy_game,  # noqa: F401  (autouse: the toy game registered)
)
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")


@pytest.fixture
def bot_folder(tmp_path: Path) -> Path:
    """A world-readable folder holding ``my_bot.py`` and ``bot.js`` (random bots)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(ROOT / "bots" / "random_bot.py", folder / "my_bot.py")
    shutil.copy(ROOT / "bots" / "examples" / "random_bot.js", folder / "bot.js")
    for path in (tmp_path, folder):
        path.chmod(0o755)
    return folder


def sandbox_mode() -> str:
    return "none" if bwrap_problem() else "bwrap"


def test_a_script_without_a_slash_is_made_absolute(bot_folder: Path) -> None:
    argv = resolve_command("python3 my_bot.py --seed 3", bot_folder)
    assert argv == [sys.executable, str(bot_folder / "my_bot.py"), "--seed", "3"]
    assert resolve_command("node bot.js", bot_folder)[1] == str(bot_folder / "bot.js")
    # a plain word that names no script is left alone
    assert resolve_command("python3 -m json.tool", bot_folder)[1:] == ["-m", "json.tool"]


@pytest.mark.parametrize(
    "command",
    [
        "python3 my_bot.py",
        pytest.param(
            "node bot.js", marks=pytest.mark.skipif(NODE is None, reason="node not installed")
        ),
    ],
)
def test_check_bot_from_the_folder_that_holds_the_bot(
    bot_folder: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.chdir(bot_folder)
    result = invoke("check-bot", GAME.name, command, "--sandbox", sandbox_mode())
    assert result.exit_code == 0, result.output
    assert "clean:" in result.stdout


@pytest.mark.skipif(NODE is None, reason="node not installed")
def test_a_tournament_config_beside_its_bots(bot_folder: Path, tmp_path: Path) -> None:
    config = bot_folder / "t.toml"
    config.write_text(
        f'name = "paths"\ngame = "{GAME.name}"\nseats = 2\ngames = 2\n'
        f'sandbox = "{sandbox_mode()}"\n[options]\ntarget = 6\n'
        '[[bots]]\nname = "py"\ncommand = "python3 my_bot.py"\n'
        '[[bots]]\nname = "js"\ncommand = "node bot.js"\n'
    )
    out = tmp_path / "run"
    result = invoke("tournament", config, "--out", out, "--quiet", "--format", "json")
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)
    assert tables["matches"] == 2
    faults = {row["bot"]: row["faults"] for row in tables["standings"]}
    assert faults == {"py": 0, "js": 0}, tables["standings"]


needs_root_sandbox = pytest.mark.skipif(
    os.geteuid() != 0 or bwrap_problem() is not None,
    reason="bots run as a uid of their own only under bubblewrap as root",
)


@needs_root_sandbox
def test_a_private_bot_folder_is_refused_before_any_match(bot_folder: Path) -> None:
    bot_folder.chmod(0o700)  # what `mktemp -d` makes
    script = bot_folder / "my_bot.py"
    result = invoke(
        "play", GAME.name, "--bot", f"python3 {script}", "--bot", f"python3 {script}",
        "--sandbox", "bwrap",
    )  # fmt: skip
    one_error_line(result, str(script), f"chmod o+rx {bot_folder}", "0700")
    config = bot_folder / "t.toml"
    config.write_text(
        f'name = "p"\ngame = "{GAME.name}"\nseats = 2\nsandbox = "bwrap"\n'
        '[[bots]]\nname = "a"\ncommand = "python3 my_bot.py"\n'
        '[[bots]]\nname = "b"\ncommand = "python3 my_bot.py"\n'
    )
    out = bot_folder.parent / "run"
    one_error_line(invoke("tournament", config, "--out", out), f"chmod o+rx {bot_folder}")
    assert not out.exists()
    one_error_line(invoke("check-bot", GAME.name, f"python3 {script}", "--sandbox", "bwrap"))


@needs_root_sandbox
def test_an_unreadable_script_is_refused(bot_folder: Path) -> None:
    script = bot_folder / "my_bot.py"
    script.chmod(0o600)
    result = invoke("check-bot", GAME.name, f"python3 {script}", "--sandbox", "bwrap")
    one_error_line(result, f"chmod o+r {script}")


@needs_root_sandbox
def test_the_same_private_bot_plays_once_opened(bot_folder: Path) -> None:
    """The check refuses exactly what would fail: opened up, the bot plays cleanly."""
    bot_folder.chmod(0o700)
    script = bot_folder / "my_bot.py"
    args = ["play", GAME.name, "--bot", f"python3 {script}", "--bot", f"python3 {script}"]
    one_error_line(invoke(*args, "--sandbox", "bwrap"))
    # without the check, every seat would be a startup fault: --sandbox none shows
    # the bot itself is fine, and opening the folder makes it play under bwrap
    bot_folder.chmod(0o755)
    result = invoke(*args, "--sandbox", "bwrap", "--format", "json")
    assert result.exit_code == 0, result.output
    assert [row["verdict"] for row in json.loads(result.stdout)["seats"]] == ["ok", "ok"]


@pytest.mark.skipif(bwrap_problem() is not None, reason="bubblewrap cannot run here")
@pytest.mark.parametrize("option", ["--record", "--logs"])
def test_a_bot_in_the_folder_of_its_outputs_is_refused(
    bot_folder: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    monkeypatch.chdir(bot_folder)
    target = "m.jsonl" if option == "--record" else "."
    bots = ["--bot", "python3 my_bot.py", "--bot", "python3 my_bot.py"]
    result = invoke("play", GAME.name, *bots, option, target, "--sandbox", "bwrap")
    one_error_line(result, str(bot_folder / "my_bot.py"), option, "hides")
    # a subfolder is fine, and the match is played in full
    target = "records/m.jsonl" if option == "--record" else "logs"
    result = invoke("play", GAME.name, *bots, option, target, "--sandbox", "bwrap")
    assert result.exit_code == 0, result.output
    assert "startup" not in result.stdout


@pytest.mark.skipif(bwrap_problem() is not None, reason="bubblewrap cannot run here")
def test_check_bot_logs_in_the_bot_folder_are_refused(bot_folder: Path) -> None:
    script = bot_folder / "my_bot.py"
    result = invoke(
        "check-bot", GAME.name, f"python3 {script}", "--logs", bot_folder, "--sandbox", "bwrap"
    )
    one_error_line(result, "--logs", "hides")
