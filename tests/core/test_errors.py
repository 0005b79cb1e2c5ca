"""The error net: user errors are one line (exit 2, regress 4), bugs keep their traceback
(exit 1), and ``REFEREE_TRACEBACK=1`` shows the traceback of user errors too."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee import errors
from referee.api.engine import GameError, IllegalAction, InvalidChance, OptionError
from referee.cli.main import main
from referee.errors import TRACEBACK_ENV, BadInput, RefereeError, is_user_error, user_errors
from referee.games import UnknownGame
from referee.games.roads_and_boats.world import MapError
from referee.match.record import RecordError
from referee.match.replay import ReplayError
from referee.match.signing import SignatureError
from referee.process.isolation.sandbox import SandboxError
from referee.process.isolation.uids import NoFreeUid
from referee.process.loop import LoopError
from referee.process.spec import BotCommandError
from referee.tournament.config import ConfigError
from referee.tournament.resultsdb import ResultsError
from referee.tournament.run import TournamentError
from referee.tournament.rundir import RunDirError
from referee.viewer.timeline import EmptyRecord

ROOT = Path(__file__).resolve().parents[2]

USER_ERRORS: list[tuple[type[Exception], type[Exception]]] = [
    (GameError, Exception),
    (IllegalAction, ValueError),
    (InvalidChance, ValueError),
    (OptionError, ValueError),
    (MapError, ValueError),
    (UnknownGame, KeyError),
    (BotCommandError, ValueError),
    (ConfigError, ValueError),
    (RecordError, ValueError),
    (ReplayError, ValueError),
    (EmptyRecord, ValueError),
    (LoopError, RuntimeError),
    (ResultsError, ValueError),
    (TournamentError, ValueError),
    (RunDirError, ValueError),
    (SignatureError, ValueError),
    (SandboxError, ValueError),
    (NoFreeUid, OSError),
    (BadInput, ValueError),
]


@pytest.mark.parametrize(("cls", "other"), USER_ERRORS, ids=lambda c: c.__name__)
def test_every_user_error_is_a_referee_error_and_keeps_its_old_base(
    cls: type[Exception], other: type[Exception]
) -> None:
    assert issubclass(cls, RefereeError) and issubclass(cls, other)
    assert is_user_error(cls("x"))


def test_only_referee_errors_and_file_errors_are_user_errors() -> None:
    assert is_user_error(FileNotFoundError(errno.ENOENT, "No such file", "/nope"))
    assert is_user_error(PermissionError(errno.EACCES, "Denied", "/root/x"))
    assert not is_user_error(OSError(errno.EBADF, "Bad file descriptor"))  # no file named
    assert not is_user_error(BrokenPipeError(errno.EPIPE, "Broken pipe", "/x"))
    for bug in (ValueError("x"), KeyError("x"), RuntimeError("x"), TypeError("x")):
        assert not is_user_error(bug)


def _net(exc: BaseException, capsys: pytest.CaptureFixture[str]) -> tuple[object, str]:
    """Raise ``exc`` inside the net: (the SystemExit code or the exception, stderr)."""
    try:
        with user_errors(status=4, prefix="referee: error: "):
            raise exc
    except SystemExit as stop:
        return stop.code, capsys.readouterr().err
    except BaseException as other:  # the bug itself, untouched
        return other, capsys.readouterr().err


def test_the_net_prints_one_escaped_line_and_exits_with_its_status(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TRACEBACK_ENV, raising=False)
    code, err = _net(ConfigError("t.toml: bad \x1b[2J value"), capsys)
    assert code == 4 and err == "referee: error: t.toml: bad \\x1b[2J value\n"
    code, err = _net(FileNotFoundError(errno.ENOENT, "No such file", "/nope"), capsys)
    assert code == 4 and err.count("\n") == 1 and "/nope" in err


def test_the_net_lets_bugs_through(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRACEBACK_ENV, "1")
    bug = ValueError("a bug")
    raised, err = _net(bug, capsys)
    assert raised is bug and err == ""
    no_file = OSError(errno.EBADF, "Bad file descriptor")
    raised, err = _net(no_file, capsys)
    assert raised is no_file and err == ""


def _referee(
    code: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a fresh interpreter after ``code`` (a monkeypatch)."""
    script = "\n".join(
        ["import sys", "import referee.cli.main as cli", code, "cli.main(prog_name='referee')"]
    )
    clean = {k: v for k, v in os.environ.items() if k != TRACEBACK_ENV}
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**clean, **(env or {})},
        timeout=60,
    )


BUG = (
    "import referee.cli.schema\n"
    "def broken(name):\n    raise ValueError('a bug, not a user mistake')\n"
    "referee.cli.schema.get_game = broken"
)


def test_a_bug_shows_its_traceback_and_exits_1() -> None:
    done = _referee(BUG, "schema", "manila")
    assert done.returncode == 1
    assert "Traceback (most recent call last)" in done.stderr
    assert "ValueError: a bug, not a user mistake" in done.stderr
    assert "referee: error" not in done.stderr


def test_a_user_error_is_one_line_and_exit_2() -> None:
    done = _referee("", "schema", "chess")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("referee: error: unknown game 'chess'")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_referee_traceback_shows_it_for_a_user_error_too() -> None:
    done = _referee("", "schema", "chess", env={TRACEBACK_ENV: "1"})
    assert done.returncode == 2
    assert "Traceback (most recent call last)" in done.stderr
    assert "UnknownGame" in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("referee: error: unknown game 'chess'")


def test_a_bug_in_regress_setup_is_not_a_bad_invocation(monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.cli.regress

    def broken(name: str) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(referee.cli.regress, "get_game", broken)
    result = CliRunner().invoke(
        main, ["regress", "--game", "manila", "--candidate", "x", "--baseline", "y"]
    )
    assert result.exit_code == 1 and isinstance(result.exception, KeyError)
    monkeypatch.undo()
    result = CliRunner().invoke(
        main, ["regress", "--game", "chess", "--candidate", "x", "--baseline", "y"]
    )
    assert result.exit_code == 4 and "referee: error: unknown game 'chess'" in result.stderr


def test_a_bug_in_the_viewer_is_not_a_bad_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import referee.cli.view

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug")

    record = tmp_path / "r.jsonl"
    record.write_text("")
    result = CliRunner().invoke(main, ["view", str(record)])
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
    monkeypatch.setattr(referee.cli.view, "write_viewer", broken)
    result = CliRunner().invoke(main, ["view", str(record)])
    assert result.exit_code == 1 and isinstance(result.exception, ValueError)


def test_errors_module_is_light() -> None:
    """Bots import the engine, which imports :mod:`referee.errors`: it must not pull in
    click or the rest of the referee at import time."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys, referee.errors; print(sorted(m for m in sys.modules "
         "if m.startswith(('referee', 'click'))))"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "['referee', 'referee.errors']"
    assert errors.__doc__ and "REFEREE_TRACEBACK" in errors.__doc__
