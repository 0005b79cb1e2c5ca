"""The event loop choice (referee.process.loop) and the children it watches (referee.process.child):
both loops run a whole match, a child's exit is seen through its pidfd or by polling,
and a bad ``REFEREE_LOOP`` is a clear error."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.games import get_game
from referee.match.match import Clock, run_match
from referee.process import child as child_module
from referee.process import loop as event_loop
from referee.process.child import Child

ROOT = Path(__file__).resolve().parents[2]
LOOPS = ["asyncio"] + (["uvloop"] if event_loop.loop_factory() is not None else [])


def test_the_choice_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_LOOP", "asyncio")
    assert event_loop.loop_factory() is None and event_loop.name() == "asyncio"
    with event_loop.runner() as runner:
        assert type(runner.get_loop()).__module__.startswith("asyncio")
    monkeypatch.setenv("REFEREE_LOOP", "bogus")
    with pytest.raises(event_loop.LoopError, match="auto, asyncio, uvloop"):
        event_loop.loop_factory()
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == 2 and "REFEREE_LOOP must be one of" in result.output


def test_uvloop_is_used_where_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    uvloop = pytest.importorskip("uvloop")
    for setting in ("auto", "uvloop", ""):
        monkeypatch.setenv("REFEREE_LOOP", setting)
        assert event_loop.name() == "uvloop"
        assert event_loop.run(_loop_type()) is uvloop.Loop


def test_uvloop_asked_for_but_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import fails
    monkeypatch.setenv("REFEREE_LOOP", "uvloop")
    with pytest.raises(event_loop.LoopError, match="not installed"):
        event_loop.loop_factory()
    monkeypatch.setenv("REFEREE_LOOP", "auto")
    assert event_loop.name() == "asyncio"


async def _loop_type() -> type:
    return type(asyncio.get_running_loop())


@pytest.mark.parametrize("loop", LOOPS)
def test_a_whole_match_on_each_loop(monkeypatch: pytest.MonkeyPatch, loop: str) -> None:
    monkeypatch.setenv("REFEREE_LOOP", loop)
    bot = [sys.executable, str(ROOT / "bots" / "random_bot.py")]
    from referee.process.spec import BotSpec

    outcome = event_loop.run(
        run_match(
            get_game("manila"),
            [BotSpec(f"r{i}", bot) for i in range(3)],
            seed=5,
            clock=Clock(move_ms=5000),
        )
    )
    assert outcome.verdicts == ["ok", "ok", "ok"] and outcome.plies > 20


def _start(code: str) -> Child:
    return Child.start(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=str(ROOT),
        env=dict(os.environ),
    )


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("pidfd", [True, False])
def test_child_exit_codes(monkeypatch: pytest.MonkeyPatch, loop: str, pidfd: bool) -> None:
    """Exit codes, a killing signal as its negative, several waiters at once, and a
    cancelled wait that leaves the child running; with a pidfd and by polling."""
    monkeypatch.setenv("REFEREE_LOOP", loop)
    if not pidfd:
        monkeypatch.delattr(child_module.os, "pidfd_open", raising=False)

    async def scenario() -> None:
        quick = _start("import sys; sys.exit(3)")
        assert (quick._pidfd >= 0) == (pidfd and hasattr(os, "pidfd_open"))
        assert await asyncio.wait_for(quick.wait(), 10) == 3
        assert quick.returncode == 3 and quick._pidfd == -1

        slow = _start("import time; time.sleep(60)")
        assert slow.returncode is None
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(slow.wait(), 0.05)
        assert slow.returncode is None  # the cancelled wait did not end it
        waiters = [asyncio.ensure_future(slow.wait()) for _ in range(3)]
        await asyncio.sleep(0.05)
        os.kill(slow.pid, signal.SIGKILL)
        codes = await asyncio.wait_for(asyncio.gather(*waiters), 10)
        assert codes == [-signal.SIGKILL] * 3

    event_loop.run(scenario())


def test_child_that_cannot_start() -> None:
    with pytest.raises(OSError):
        Child.start(
            ["/nonexistent/bot"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=str(ROOT),
            env={},
        )
