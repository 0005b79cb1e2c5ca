"""``bots/openspiel_bot.py``: OpenSpiel's algorithms as a referee bot, checked by
``referee check-bot`` in the sandbox, and a clear message without the extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.interop.helpers import need

ROOT = Path(__file__).resolve().parents[2]


def _check_bot(game: str, command: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee.cli.main", "check-bot", game, command, *flags],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("game", "algorithm", "flags"),
    [
        ("manila", "ismcts", ("--move-ms", "400", "--bank-ms", "10000")),
        ("puerto-rico", "mcts", ("--move-ms", "400", "--bank-ms", "10000")),
        ("roads-and-boats", "random", ()),
    ],
)
def test_check_bot_is_clean(game: str, algorithm: str, flags: tuple[str, ...]) -> None:
    """A short clock keeps the test short; the bank absorbs a loaded machine's stalls
    (the bot plans its searches from the move time alone)."""
    need("pyspiel")
    done = _check_bot(game, f"python3 bots/openspiel_bot.py --algorithm {algorithm}", *flags)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "clean:" in done.stdout + done.stderr
    assert f"calls itself 'openspiel-{algorithm}'" in done.stdout + done.stderr


def test_without_the_extra_it_says_how_to_install(tmp_path: Path) -> None:
    (tmp_path / "pyspiel.py").write_text("raise ImportError('no OpenSpiel here')\n")
    done = subprocess.run(
        [sys.executable, "bots/openspiel_bot.py", "--algorithm", "ismcts"],
        cwd=ROOT,
        input='{"type": "start", "game": "manila", "seat": 0, "seats": 3}\n',
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2
    assert done.stdout == ""  # no `ready`: the referee reports a start-up fault
    assert "pip install -e '.[interop]'" in done.stderr
